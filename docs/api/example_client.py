"""A complete Meeple Arena API client with plain `requests`.

Uploads a bot, waits for its validation, creates a round-robin tournament against the ready
versions already on the server, starts it, waits for it to finish, prints the standings and
saves the games as CSV. Run it with

    python example_client.py --url https://arena.example.org --token YOUR_TOKEN \\
        --title citadels --bot my_bot.py --out games.csv

(the token is on your profile page, or from POST /api/v1/token/ with your username and
password). Every error the API answers has the body {"error": {"code", "message", "fields"}};
this client prints it and stops.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import requests


class ArenaError(RuntimeError):
    """The API refused a request; the message is the API's own."""


class Arena:
    """A thin session on /api/v1/: the token in every request, errors raised as ArenaError,
    and a polite wait when the API answers 429."""

    def __init__(self, url: str, token: str):
        self.base = url.rstrip("/") + "/api/v1/"
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Token {token}"

    def call(self, method: str, path: str, **kwargs) -> requests.Response:
        while True:
            response = self.session.request(method, self.base + path, timeout=60, **kwargs)
            if response.status_code != 429:
                break
            time.sleep(int(response.headers.get("Retry-After", "5")))
        if response.status_code >= 400:
            error = response.json().get("error", {})
            fields = "".join(f"\n  {k}: {' '.join(v)}" for k, v in error.get("fields", {}).items())
            raise ArenaError(f"{response.status_code} {error.get('message')}{fields}")
        return response

    def get(self, path: str, **params) -> dict:
        return self.call("GET", path, params=params).json()

    def post(self, path: str, **kwargs) -> dict:
        return self.call("POST", path, **kwargs).json()

    def every(self, path: str, **params):
        """Every row of a list, page after page."""
        page = self.get(path, **params)
        yield from page["results"]
        while page["next"]:
            page = self.session.get(page["next"], timeout=60).json()
            yield from page["results"]


def wait(what: str, check, *, every: float = 2.0, timeout: float = 1800):
    deadline = time.monotonic() + timeout
    while (value := check()) is None:
        if time.monotonic() > deadline:
            raise ArenaError(f"gave up waiting for {what}")
        time.sleep(every)
    return value


def upload_bot(arena: Arena, title: str, name: str, path: Path) -> dict:
    """Create the bot (or reuse the one of that name) and upload ``path`` as a new version."""
    me = arena.get("me/")["username"]
    mine = list(arena.every("bots/", owner=me, title=title))
    bot = next((b for b in mine if b["name"] == name), None)
    if bot is None:
        bot = arena.post("bots/", json={"title": title, "name": name})
    with path.open("rb") as artifact:
        version = arena.post(
            "bot-versions/", data={"bot": bot["id"]}, files={"file": (path.name, artifact)}
        )
    print(f"uploaded {name} version {version['number']}; validating...")
    return version


def validated(arena: Arena, version: dict) -> dict:
    def done():
        v = arena.get(f"bot-versions/{version['id']}/")
        return v if v["status"] in ("ready", "rejected") else None

    version = wait("the validation", done)
    if version["status"] == "rejected":
        log = version.get("validation_stderr") or ""
        raise ArenaError(f"the version was rejected: {version['reason']}\n{log}")
    print("validation passed:", version["reason"])
    return version


def run_tournament(arena: Arena, title: str, version: dict, seats: int, rounds: int) -> dict:
    opponents = [
        v["id"]
        for v in arena.every("bot-versions/", title=title, status="ready")
        if v["bot"] != version["bot"]
    ]
    if len(opponents) < seats - 1:
        raise ArenaError(f"{title} has {len(opponents)} ready opponents; {seats - 1} needed")
    tournament = arena.post(
        "tournaments/",
        json={
            "name": f"Trial of version {version['number']}",
            "title": title,
            "seats": seats,
            "rounds": rounds,
            "entrants": [version["id"], *opponents[: max(seats - 1, 3)]],
        },
    )
    arena.post(f"tournaments/{tournament['id']}/start/")

    def finished():
        progress = arena.get(f"tournaments/{tournament['id']}/progress/")
        print(f"  {progress['done']} / {progress['total']} games done")
        return progress if progress["status"] in ("finished", "cancelled") else None

    wait("the tournament", finished, every=3)
    return tournament


def print_standings(arena: Arena, tournament: dict) -> None:
    print(f"{'':>3} {'bot':<40} {'μ−3σ':>7} {'games':>5} {'wins':>4}")
    rows = arena.every(f"tournaments/{tournament['id']}/standings/")
    for position, row in enumerate(rows, start=1):
        print(
            f"{position:>3} {row['bot']:<40} {row['ordinal']:>7.2f} {row['games']:>5} {row['wins']:>4}"
        )


def save_games(arena: Arena, tournament: dict, out: Path) -> int:
    """The tournament's games as CSV (one row per seat); returns the number of rows."""
    response = arena.call("GET", "games/csv/", params={"tournament": tournament["id"]})
    out.write_bytes(response.content)
    return response.text.count("\n") - 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True, help="the arena's address")
    parser.add_argument("--token", required=True, help="your API token")
    parser.add_argument("--title", required=True, help="citadels, praga, ...")
    parser.add_argument("--bot", required=True, type=Path, help="a .py file or a zip")
    parser.add_argument("--name", default="example-bot", help="the bot's name")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("games.csv"))
    args = parser.parse_args(argv)
    arena = Arena(args.url, args.token)
    try:
        version = validated(arena, upload_bot(arena, args.title, args.name, args.bot))
        tournament = run_tournament(arena, args.title, version, args.seats, args.rounds)
        print_standings(arena, tournament)
        rows = save_games(arena, tournament, args.out)
    except ArenaError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    print(f"saved {rows} rows (one per seat) to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
