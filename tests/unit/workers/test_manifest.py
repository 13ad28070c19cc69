"""Bots on disk: a directory with bot.json, or a single .py file."""

import json

import pytest

from workers.manifest import BotSpecError, load_bot


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
    with pytest.raises(BotSpecError, match="must be a .py file"):
        load_bot(tmp_path / "bot.zip")
    with pytest.raises(BotSpecError, match="has no bot.json"):
        load_bot(tmp_path)
