"""Bots on disk: a directory with bot.json or one obvious entry file, or a single file."""

import json

import pytest

from workers.manifest import BotSpecError, conventional_entry, load_bot


def write_bot(path, manifest, files=("bot.py",)):
    path.mkdir(exist_ok=True)
    for name in files:
        (path / name).write_text("print('hi')\n")
    (path / "bot.json").write_text(manifest if isinstance(manifest, str) else json.dumps(manifest))
    return path


def test_a_directory_bot_reads_its_manifest(tmp_path):
    bot = write_bot(tmp_path / "b", {"title": "citadels", "entry": "bot.py", "name": "Foxy"})
    files = load_bot(bot, "citadels")
    assert (files.entry, files.language, files.title, files.name) == (
        "bot.py",
        "python",
        "citadels",
        "Foxy",
    )
    assert not files.single_file


def test_a_single_python_file_is_a_bot(tmp_path):
    (tmp_path / "solo.py").write_text("")
    files = load_bot(tmp_path / "solo.py", "praga")
    assert files.single_file and files.entry == "solo.py" and files.title is None


@pytest.mark.parametrize(
    ("manifest", "message"),
    [
        ("{nope", "bot.json is not valid JSON"),
        ([1], "bot.json must hold a JSON object"),
        ({"entry": "bot.py"}, 'bot.json needs a "title" text field'),
        ({"title": "citadels"}, 'bot.json needs a "entry" text field'),
        ({"title": "citadels", "entry": "bot.py", "language": "rust"}, "language 'rust' is not"),
        ({"title": "citadels", "entry": "bot.py", "build": ["make"]}, '"build" must be text'),
        ({"title": "citadels", "entry": "../bot.py"}, "must be a path inside the bot's directory"),
        ({"title": "citadels", "entry": "/bot.py"}, "must be a path inside the bot's directory"),
        ({"title": "citadels", "entry": "main.py"}, "entry file 'main.py' is not in the bot's"),
        ({"title": "praga", "entry": "bot.py"}, "this bot is for 'praga', not for 'citadels'"),
        (
            {"title": "citadels", "entry": "bot.py", "language": "executable"},
            "entry 'bot.py' is not executable",
        ),
    ],
)
def test_unusable_manifests_say_what_to_fix(tmp_path, manifest, message):
    bot = write_bot(tmp_path / "b", manifest)
    with pytest.raises(BotSpecError, match=message.replace("(", r"\(")):
        load_bot(bot, "citadels")


def test_missing_paths_and_other_files_are_refused(tmp_path):
    with pytest.raises(BotSpecError, match="does not exist"):
        load_bot(tmp_path / "nothing")
    (tmp_path / "bot.zip").write_bytes(b"PK")
    with pytest.raises(BotSpecError, match="must be a .py or .js file"):
        load_bot(tmp_path / "bot.zip")
    with pytest.raises(BotSpecError, match="there is no bot.json and none of bot.py, main.py"):
        load_bot(tmp_path)


@pytest.mark.parametrize(
    ("entry", "language"),
    [("bot.py", "python"), ("main.py", "python"), ("bot.js", "node"), ("main.js", "node")],
)
def test_a_directory_with_one_obvious_entry_needs_no_manifest(tmp_path, entry, language):
    (tmp_path / "mybot").mkdir()
    (tmp_path / "mybot" / entry).write_text("")
    (tmp_path / "mybot" / "helpers.py").write_text("")
    files = load_bot(tmp_path / "mybot", "citadels")
    assert (files.entry, files.language, files.title, files.name) == (
        entry,
        language,
        None,
        "mybot",
    )


def test_two_possible_entries_without_a_manifest_are_refused_naming_both(tmp_path):
    for name in ("bot.py", "main.js"):
        (tmp_path / name).write_text("")
    with pytest.raises(BotSpecError, match="both bot.py and main.js could be the entry"):
        load_bot(tmp_path)


def test_a_single_javascript_file_runs_with_node(tmp_path):
    (tmp_path / "solo.js").write_text("")
    files = load_bot(tmp_path / "solo.js")
    assert (files.single_file, files.language, files.entry) == (True, "node", "solo.js")


def test_a_missing_compiled_entry_names_the_build_command(tmp_path):
    manifest = {"title": "praga", "entry": "bot", "language": "executable", "build": "make"}
    bot = write_bot(tmp_path / "b", manifest, files=("bot.cpp",))
    with pytest.raises(BotSpecError, match="entry file 'bot' is not .*; build it first: make"):
        load_bot(bot, "praga")


def test_a_folder_without_a_manifest_is_told_a_manifest_it_can_copy():
    with pytest.raises(BotSpecError) as refused:
        conventional_entry(["notes.txt"])
    example = str(refused.value).split("such as ")[1].split(" naming it")[0]
    assert json.loads(example) == {"title": "citadels", "entry": "bot.py"}
