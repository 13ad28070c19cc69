"""Components that really swap (issue 15): a data folder changes shapes and values the code
used to fix (wheel slots, seal values, the 5-point token, the bots' view of the tiles), and a
folder the rules cannot honour is refused at load with the file and field named."""

import json
import shutil

import pytest

from engine.praga import PragaTitle
from engine.praga.crane import TURNS_PER_PLAYER
from engine.praga.scoring import final_scoring
from engine.praga.validation import ComponentError

from .helpers import PRAGA


def folder_with(tmp_path, name, edit):
    """A copy of the shipped data whose ``name`` file went through ``edit(data)``."""
    folder = tmp_path / "data"
    if not folder.exists():
        shutil.copytree(PRAGA.components.folder, folder)
    path = folder / name
    data = json.loads(path.read_text())
    edit(data)
    path.write_text(json.dumps(data))
    return folder


def play_with_bots(title, players, seed):
    g = title.new_game(players, {}, seed)
    bots = [title.bot(("builder", "climber")[i % 2], seed + i) for i in range(players)]
    while not g.is_over():
        d = g.decision()
        g.apply(bots[d.seat].choose(g.observation(d.seat), d.kind, d.options))
    return g


def test_a_thirteen_slot_crane_wheel_with_its_platform_reset_plays_sixteen_turns_each(tmp_path):
    def thirteen(crane):
        crane["wheel_slots"] = 13
        crane["frame"].insert(6, {"zone": "green"})
        crane["slot_bonuses"].append({"kind": "gain", "reward": {"gold": 1}})
        # one more slot a lap: the cube starts elsewhere so the game still lasts 16 turns each
        crane["box_start"] = {"1": 5, "2": 5, "3": 1, "4": 9}
        crane["platform_start"] = {"1": 3, "2": 3, "3": 2, "4": 0}

    title = PragaTitle(folder_with(tmp_path, "crane.json", thirteen))
    g = play_with_bots(title, 4, 3)
    assert len(g.slot_tile) == 13
    assert g.is_over() and len(g.result()["scores"]) == 4
    assert g.turns_taken == [TURNS_PER_PLAYER] * 4


def test_a_wheel_that_cannot_give_sixteen_turns_each_is_refused_saying_so(tmp_path):
    # issue 29: 14 slots with the 12-slot platform gave every seat 19 turns
    def fourteen(crane):
        crane["wheel_slots"] = 14
        crane["frame"][6:6] = [{"zone": "green"}, {"zone": "green"}]
        crane["slot_bonuses"] += [{"kind": "gain", "reward": {"gold": 1}}] * 2

    folder = folder_with(tmp_path, "crane.json", fourteen)
    with pytest.raises(ComponentError) as refused:
        PragaTitle(folder)
    message = str(refused.value)
    assert "crane.json" in message and "exactly 16 turns" in message
    assert "a 1-player game turns the wheel 38 times (19 turns each)" in message


def test_an_action_board_of_another_shape_plays_whole_games_on_its_own_hexes(tmp_path):
    ring = [[-2, 2], [-1, 2], [0, 2], [1, 1], [2, 0], [2, -1], [2, -2], [1, -2], [0, -2]]
    turned = ["road", "mines", "quarries", "upgrade", "wall", "building"]
    directions = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]]

    def reshaped(board):
        board["action_board"]["actions"] = dict(zip(turned, directions, strict=True))
        board["action_board"]["wall_spaces"] = ring

    title = PragaTitle(folder_with(tmp_path, "player_board.json", reshaped))
    layout = title.components.action_board
    assert layout.board.coords[layout.action_hex["mines"]] == (1, -1)
    g = title.new_game(3, {}, 5)
    bots = [title.bot("builder", 5 + i) for i in range(3)]
    offered = set()
    while not g.is_over():
        d = g.decision()
        if d.kind == "wall_space":
            offered |= {o["hex"] for o in d.options}
        g.apply(bots[d.seat].choose(g.observation(d.seat), d.kind, d.options))
    assert layout.wall_spaces == list(range(7, 7 + len(ring)))
    assert offered and offered <= set(layout.wall_spaces)
    assert len(g.board_top[0]) == 7 + len(ring)
    assert g.turns_taken == [TURNS_PER_PLAYER] * 3


@pytest.mark.parametrize(
    "edit, named",
    [
        (lambda b: b["actions"].__setitem__("mines", [3, 0]), "mines at (3, 0) does not touch"),
        (lambda b: b["wall_spaces"].append([4, 0]), "wall space (4, 0) touches no action hex"),
        (lambda b: b["actions"].pop("road"), "the board has exactly"),
        (lambda b: b["wall_spaces"].append([0, 0]), "two spaces share a hex"),
    ],
)
def test_an_action_board_the_rules_cannot_play_is_refused(tmp_path, edit, named):
    folder = folder_with(tmp_path, "player_board.json", lambda d: edit(d["action_board"]))
    with pytest.raises(ValueError, match=named.replace("(", r"\(").replace(")", r"\)")):
        PragaTitle(folder)


def test_the_five_point_token_shows_the_value_the_data_gives(tmp_path):
    def seven(crane):
        crane["past_blue_token_points"] = 7

    title = PragaTitle(folder_with(tmp_path, "crane.json", seven))
    g = title.new_game(2, {}, 1)
    slot = next(slot for slot, t in enumerate(g.slot_tile) if t >= 0)
    g.five_point_token[g.slot_tile[slot]] = 1
    shown = next(x for x in g.observation(0)["crane"]["tiles"] if x["tile"] == g.slot_tile[slot])
    frame = g.components.crane["frame"][shown["position"]]
    assert shown["points"] == frame.get("points", 0) + 7


def test_seal_values_come_from_the_data(tmp_path):
    def richer(misc):
        for seal in misc["seals"]:
            if seal["id"] == "gold2":
                seal["score"] = {"per_gold": 3}
            if seal["id"] == "vp6":
                seal["score"] = {"points": 8}

    title = PragaTitle(folder_with(tmp_path, "misc.json", richer))
    g = title.new_game(2, {}, 1)
    ids = [seal["id"] for seal in g.components.seals]
    g.seal_owner[ids.index("gold2")] = 0
    g.seal_owner[ids.index("vp6")] = 0
    g.gold[0], g.stone[0] = 4, 0
    details = final_scoring(g)
    assert details[0]["seals"] == 3 * 4 + 8


def test_the_built_in_bots_read_the_games_component_set(tmp_path):
    def renamed(tiles):
        for tile in tiles["tiles"]:
            tile["id"] = "X" + tile["id"]

    title = PragaTitle(folder_with(tmp_path, "tiles.json", renamed))
    assert title.bot("builder").components is title.components
    g = play_with_bots(title, 3, 2)
    assert g.city_tile and g.is_over()


@pytest.mark.parametrize(
    "name, edit, named",
    [
        ("tiles.json", lambda d: d["tiles"][0]["edges"].__setitem__(0, "univ"), "edges[0]"),
        ("crane.json", lambda d: d["frame"].pop(), "crane.json frame"),
        ("crane.json", lambda d: d.__setitem__("wheel_slots", 14), "crane.json frame"),
        ("misc.json", lambda d: d["seals"][0].__setitem__("score", "gold2"), "seals gold2 score"),
        (
            "player_board.json",
            lambda d: d["tech_track"]["books"].pop("3"),
            "tech_track.books",
        ),
        ("techs.json", lambda d: d["techs"][12].__setitem__("effect", "fly"), "T3road effect"),
        ("bridge.json", lambda d: d["iv"][0].__setitem__("reward", {"gems": 1}), "iv IV1"),
        ("misc.json", lambda d: d["squares"]["tiles"][0]["upper"].append({"vp": 1}), "P01 upper"),
    ],
)
def test_data_the_rules_cannot_honour_is_refused_at_load_naming_the_field(
    tmp_path, name, edit, named
):
    folder = folder_with(tmp_path, name, edit)
    with pytest.raises(ComponentError, match=named.replace("[", r"\[").replace("]", r"\]")):
        PragaTitle(folder)


def test_reconstructed_technology_content_is_marked_so():
    raw = json.loads((PRAGA.components.folder / "techs.json").read_text())
    assert "reconstructed" in raw["level_split_source"]
    by_id = {tech["id"]: tech for tech in raw["techs"]}
    for tid in ("T1gold", "T1stone"):
        assert "reconstructed" in by_id[tid]["source"], tid
