"""Game viewer costs for a 7-player Citadels and a 4-player Praga game (figures, never asserted).

    .venv/bin/python bench/viewer.py [--seed 5] [--steps 200] [--loads 5]

For each game, played by the built-in bots: the engine's time to replay the record into the
frames of one perspective and to delta-encode them (what the game page's server does once
per game and caches), the time to build the offline file's data (public and full views),
its size, and in headless Chromium (Debian's, no network) the time from the end of loading
that file to its first frame on screen (the ``meeple-first-frame`` mark, set after the
first frame was painted), over ``--loads`` loads in fresh pages (the first is the title's
first in this browser), and the time of one step (draw a frame and lay the page out), over
``--steps`` steps forward from the start, as many back from the end and as many random
jumps. Medians and maxima; the load average is printed, since others share the machine.
Because waiting for a core is not the viewer's cost, the renderer's main-thread CPU time
(Chromium's trace, thread time of its tasks) is printed too: of one load up to the first
frame, and per step over the forward steps.
Targets from issue 17: first frame under 300 ms, a step under 50 ms, the file under 1 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).absolute().parents[1]
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from engine.core import view  # noqa: E402
from engine.core.records import action_count  # noqa: E402

GAMES = {
    "citadels": ["builder", "aggressor", "random", "builder", "random", "aggressor", "random"],
    "praga": ["climber", "builder", "random", "random"],
}
CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]  # fmt: skip
STEP_JS = """([count, how]) => {
  const viewer = document.getElementById('viewer').meepleViewer, times = [];
  const last = viewer.frames.length - 1;
  let seed = 7;
  for (let i = 0; i < count; i++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const to = how === 'jump' ? seed % (last + 1) : how === 'back' ? Math.max(0, last - i) : Math.min(i, last);
    const t0 = performance.now();
    viewer.show(to);
    void document.body.offsetHeight;  // the layout, as a person's step would wait for it
    times.push(performance.now() - t0);
  }
  return times;
}"""


FIRST_JS = """async () => {
  while (!performance.getEntriesByName('meeple-first-frame').length) {
    await new Promise(r => setTimeout(r, 10));
  }
  return performance.getEntriesByName('meeple-first-frame')[0].startTime
    - performance.getEntriesByType('navigation')[0].responseEnd;
}"""


def main_thread_cpu_ms(browser, page, act) -> tuple[float, float]:
    """The renderer main thread's CPU time while ``act()`` runs, in ms, and how much of it
    came before the ``meeple-first-frame`` mark (all of it if there is none)."""
    with tempfile.NamedTemporaryFile(suffix=".json") as trace:
        browser.start_tracing(
            page=page, path=trace.name, categories=["toplevel", "blink.user_timing"]
        )
        act()
        browser.stop_tracing()
        events = json.loads(Path(trace.name).read_text())["traceEvents"]
    main = {
        (e["pid"], e["tid"])
        for e in events
        if e.get("name") == "thread_name" and e["args"].get("name") == "CrRendererMain"
    }
    marks = [e["ts"] for e in events if e.get("name") == "meeple-first-frame"]
    until = min(marks) if marks else float("inf")
    tasks = [
        e
        for e in events
        if (e.get("pid"), e.get("tid")) in main
        and e.get("ph") == "X"
        and e.get("name") == "ThreadControllerImpl::RunTask"
    ]
    total = sum(e.get("tdur", 0) for e in tasks) / 1000
    return total, sum(e.get("tdur", 0) for e in tasks if e["ts"] < until) / 1000


def measure(title: str, bots: list[str], seed: int, args, browser, context, folder: Path) -> dict:
    record = engine.play_game(title, bots, seed).record()
    began = time.perf_counter()
    frames = view.frames(record, view.PUBLIC)
    replayed = time.perf_counter()
    view.encode(frames)
    encoded = time.perf_counter()
    view.viewer_data(record, [view.PUBLIC, view.ALL])
    offline = time.perf_counter()
    path = view.write_game_html(record, folder / f"{title}.html")
    firsts = []
    for _ in range(args.loads):
        page = context.new_page()
        page.goto(path.as_uri())
        firsts.append(page.evaluate(FIRST_JS))
        page.close()
    page = context.new_page()
    _, first_cpu = main_thread_cpu_ms(
        browser, page, lambda: (page.goto(path.as_uri()), page.evaluate(FIRST_JS))
    )
    forward_cpu, _ = main_thread_cpu_ms(
        browser, page, lambda: page.evaluate(STEP_JS, [args.steps, "forward"])
    )
    steps = page.evaluate(STEP_JS, [args.steps, "forward"])
    steps += page.evaluate(STEP_JS, [args.steps, "back"])
    jumps = page.evaluate(STEP_JS, [args.steps, "jump"])
    page.close()
    return {
        "decisions": action_count(record),
        "frames_ms": 1000 * (replayed - began),
        "encode_ms": 1000 * (encoded - replayed),
        "offline_ms": 1000 * (offline - encoded),
        "html_kb": path.stat().st_size / 1024,
        "first_ms": statistics.median(firsts),
        "first_max_ms": max(firsts),
        "step_ms": statistics.median(steps),
        "step_max_ms": max(steps),
        "jump_ms": statistics.median(jumps),
        "jump_max_ms": max(jumps),
        "first_cpu_ms": first_cpu,
        "step_cpu_ms": forward_cpu / args.steps,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--loads", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS
        )
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        context.route(
            "**/*", lambda r: r.continue_() if r.request.url.startswith("file:") else r.abort()
        )
        context.new_page().goto("about:blank")  # the browser's own start is not the file's
        print(
            f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
        )
        print(f"{'game':<12}{'decisions':>10}{'frames':>9}{'encode':>9}{'offline':>9}{'html':>9}"
              f"{'1st frame':>11}{'max':>8}{'step':>8}{'max':>8}{'jump':>8}{'max':>8}")  # fmt: skip
        for title, bots in GAMES.items():
            m = measure(title, bots, args.seed, args, browser, context, Path(tmp))
            name = f"{title} {len(bots)}p"
            print(
                f"{name:<12}{m['decisions']:>10}{m['frames_ms']:>7.0f}ms{m['encode_ms']:>7.0f}ms"
                f"{m['offline_ms']:>7.0f}ms{m['html_kb']:>7.0f}KB{m['first_ms']:>9.0f}ms"
                f"{m['first_max_ms']:>6.0f}ms{m['step_ms']:>6.1f}ms{m['step_max_ms']:>6.1f}ms"
                f"{m['jump_ms']:>6.1f}ms{m['jump_max_ms']:>6.1f}ms"
            )
            print(
                f"{'':<12}first frame {m['first_ms'] / 300:.2f} of the 300 ms target (slowest "
                f"{m['first_max_ms'] / 300:.2f}), a step {m['step_ms'] / 50:.2f} of 50 ms "
                f"(slowest {m['step_max_ms'] / 50:.2f}), the file {m['html_kb'] / 1024:.2f} of 1 MB"
            )
            print(
                f"{'':<12}main-thread CPU: {m['first_cpu_ms']:.0f} ms up to the first frame, "
                f"{m['step_cpu_ms']:.1f} ms a step"
            )
        browser.close()
    print("frames/encode: engine time for one perspective; offline: the file's data, public and")
    print("full views; 1st frame: median and slowest of the loads; step: forward and back.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
