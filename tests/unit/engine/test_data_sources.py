"""Component data names its sources by what travels with the project (a seed's file name, a
reference section), never by a folder of the machine it was written on: the kits' copies go to
every bot author."""

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DATA = sorted([*ROOT.glob("engine/*/data/*.json"), *ROOT.glob("starter-kits/*/*.json")])
ABSOLUTE = re.compile(r"(?<![\w./])/(?:work|home|srv|tmp|root|Users|opt|mnt)/")


def test_no_data_file_names_an_absolute_folder():
    assert DATA
    named = [str(p.relative_to(ROOT)) for p in DATA if ABSOLUTE.search(p.read_text())]
    assert named == []


def test_the_citadels_characters_name_their_seed_file():
    about = json.loads((ROOT / "engine/citadels/data/characters.json").read_text())["_about"]
    assert re.search(r"seed = shared/rules/001_[0-9a-f]+\.txt", about)
