"""What the starter kits carry: kits in three languages per title, each with its title's
component data as JSON, current with the engine's data files."""

import importlib.util
import json

import engine
from workers.manifest import load_bot

from .conftest import KIT_NAMES, KITS, kit_manifest


def sync_module():
    spec = importlib.util.spec_from_file_location("kit_sync", KITS / "sync.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_title_has_a_python_a_node_and_a_compiled_kit():
    languages = {}
    for name in KIT_NAMES:
        manifest = kit_manifest(name)
        languages.setdefault(manifest["title"], set()).add(manifest["language"])
    assert languages == {t: {"python", "node", "executable"} for t in engine.titles()}


def test_each_kits_shared_files_are_the_current_copies():
    for path, content in sync_module().expected_files().items():
        assert path.read_bytes() == content, f"{path} is stale: run python starter-kits/sync.py"


def test_the_citadels_data_gives_every_district_its_cost_and_colour():
    for name in KIT_NAMES:
        if kit_manifest(name)["title"] == "citadels":
            cards = json.loads((KITS / name / "cards.json").read_text())
            districts = {d["id"]: d for d in cards["districts"]}
            assert districts["castle"]["cost"] == 4 and districts["castle"]["colour"] == "noble"
            assert all(isinstance(d["cost"], int) and d["colour"] for d in districts.values())


def test_a_source_kit_reads_as_a_bot_and_a_compiled_one_names_its_build():
    for name in KIT_NAMES:
        manifest = kit_manifest(name)
        if manifest.get("build"):
            assert (KITS / name / "Makefile").exists()
        else:
            assert load_bot(KITS / name, manifest["title"]).language == manifest["language"]


def test_a_node_bot_runs_as_node_and_its_entry_behind_the_limits():
    from workers.limits import Limits
    from workers.sandbox import bot_command

    bot = load_bot(KITS / "citadels-js", "citadels")
    command = bot_command(bot, Limits(), inside=True)
    assert command[0].endswith("prlimit") and command[-2:] == ["/usr/bin/node", "/bot/bot.js"]
