"""Imports point one way, engine <- workers <- platform <- dashboards, with no cycle.

Every import of every product module is read from its source (``ast``), those made inside
functions included, so an import that runs only on some path counts as much as one at the
top. Imports under ``if TYPE_CHECKING:`` serve annotations only and never run. Beside the
static reading, the runner is imported in a fresh interpreter and must load neither Django
nor the platform (a bot author runs it without either)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

from tests.support.platform import ROOT

# Each top-level package, where its source is, and its layer: a module may import its own
# layer and those below, never one above.
PACKAGES = {
    "engine": (ROOT / "engine", 0),
    "workers": (ROOT / "workers", 1),
    "arena": (ROOT / "platform" / "arena", 2),
    "dashboards": (ROOT / "dashboards", 3),
}
# The runner may use the standard library, the engine and these; never Django or Celery.
PLATFORM_ONLY = ("django", "celery", "kombu", "rest_framework", "arena", "dashboards")


def product_modules() -> dict[str, tuple[Path, bool]]:
    """Every product module's dotted name: its file and whether it is a package."""
    found = {}
    for top, (base, _) in PACKAGES.items():
        for path in base.rglob("*.py"):
            if "migrations" in path.parts:
                continue
            parts = [top, *path.relative_to(base).with_suffix("").parts]
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def imported_names(name: str, path: Path, is_package: bool) -> set[str]:
    """Every dotted name the module imports anywhere in its code, relative imports resolved;
    ``from a import b`` gives both ``a`` and ``a.b`` (``b`` may be a module)."""
    tree = ast.parse(path.read_text(), str(path))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for statement in node.body
        for inner in ast.walk(statement)
    }
    package = name if is_package else name.rpartition(".")[0]
    names = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            names.add(prefix)
            names.update(f"{prefix}.{alias.name}" for alias in node.names)
    return names


def import_graph() -> dict[str, set[str]]:
    """Module -> the product modules it imports (a package's ``__init__`` importing its own
    submodules is how a package presents itself, not a dependency of design)."""
    modules = product_modules()

    def resolve(dotted: str) -> str | None:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        return dotted or None

    graph = {}
    for name, (path, is_package) in modules.items():
        targets = {resolve(n) for n in imported_names(name, path, is_package)}
        graph[name] = {
            t for t in targets if t and t != name and not (is_package and t.startswith(name + "."))
        }
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def layer(module: str) -> int:
    return PACKAGES[module.split(".")[0]][1]


def test_the_reader_finds_imports_made_inside_functions(tmp_path):
    source = tmp_path / "sample.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from arena.bots import models\n"
        "def f():\n    from .b import c\n    import arena.games.services\n"
    )
    names = imported_names("workers.sample", source, is_package=False)
    assert {"workers.b", "workers.b.c", "arena.games.services"} <= names
    assert "arena.bots" not in names  # for annotations only


def test_the_cycle_finder_finds_a_cycle_and_nothing_else():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]


def test_no_import_cycle_across_the_whole_tree():
    assert cycles(import_graph()) == []


def test_every_import_points_down_engine_workers_platform_dashboards():
    back = sorted(
        f"{module} imports {target}"
        for module, targets in import_graph().items()
        for target in targets
        if layer(target) > layer(module)
    )
    assert back == []


def test_the_runner_imports_neither_django_nor_celery_nor_the_platform():
    modules = product_modules()
    found = sorted(
        f"{name} imports {imported}"
        for name, (path, is_package) in modules.items()
        if name.split(".")[0] in ("engine", "workers")
        for imported in imported_names(name, path, is_package)
        if imported.split(".")[0] in PLATFORM_ONLY
    )
    assert found == []


THE_RUNNER = """
import json, sys
import workers.match, workers.play, workers.limits, workers.artifacts, workers.launch
print(json.dumps(sorted(n for n in sys.modules if n.split(".")[0] in ("django", "arena"))))
"""


def test_the_match_runner_runs_without_django_or_the_platform(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARENA_", "DJANGO_"))}
    env.update(ARENA_VAR_DIR=str(tmp_path), PYTHONPATH=str(ROOT))  # no platform/ on the path
    done = subprocess.run(
        [sys.executable, "-c", THE_RUNNER], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.splitlines()[-1]) == []
