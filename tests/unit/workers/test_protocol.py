"""Protocol messages, choice resolution, fallback and the stderr cap (no processes)."""

import jsonschema
import pytest

from tests.support.toy_title import TOY
from workers.limits import Limits
from workers.protocol import (
    EventsDelta,
    IllegalChoice,
    ProtocolError,
    StderrLog,
    decide_message,
    encode,
    end_message,
    fallback_index,
    message_schema,
    parse_act,
    parse_line,
    parse_ready,
    resolve_choice,
    start_message,
)

OPTIONS = [{"kind": "build", "district": "manor"}, {"kind": "end_turn"}]


def test_built_messages_follow_their_schemas():
    start = start_message(TOY, 1, 3, TOY.options(3), Limits())
    decide = decide_message(7, "draw_or_stop", {"seat": 1}, OPTIONS, 11000, 10000, [])
    end = end_message(1, {"scores": [1, 2, 3], "ranks": [3, 2, 1], "winners": [2]}, "ok")
    for message in (start, decide, end):
        jsonschema.validate(message, message_schema(message["type"]))
    assert start["protocol"] == 1 and start["time"]["decision_ms"] == 1000
    assert "faults" not in decide


def test_decide_tells_a_bot_about_its_own_faults():
    notice = {"kind": "timeout", "decision": 3, "message": "late", "applied": OPTIONS[1]}
    decide = decide_message(4, "k", {}, OPTIONS, 1000, 0, [notice])
    jsonschema.validate(decide, message_schema("decide"))
    assert decide["faults"] == [notice]


def test_the_event_log_is_sent_as_the_events_new_since_the_previous_decide():
    delta, log = EventsDelta(), []
    first = {"seat": 0, "events": [{"event": "round", "round": 1}]}
    second = {"seat": 0, "events": [*first["events"], {"event": "built", "seat": 2}]}
    third = {"seat": 0, "events": list(second["events"])}
    for observation, expected_from, expected_new in (
        (first, 0, first["events"]),
        (second, 1, [{"event": "built", "seat": 2}]),
        (third, 2, []),
    ):
        sent, events_from = delta.apply(observation)
        assert (events_from, sent["events"]) == (expected_from, expected_new)
        assert sent["seat"] == 0 and len(observation["events"]) >= len(sent["events"])
        decide = decide_message(1, "k", sent, OPTIONS, 1000, 0, [], events_from)
        jsonschema.validate(decide, message_schema("decide"))
        log[decide["events_from"] :] = decide["observation"]["events"]
        assert log == observation["events"]


@pytest.mark.parametrize(
    "changed",
    [
        [{"event": "round", "round": 1}],  # shorter than what was sent
        [{"event": "round", "round": 1}, {"event": "built", "seat": 3}],  # last one rewritten
    ],
)
def test_an_event_log_that_did_not_just_grow_is_sent_whole_again(changed):
    delta = EventsDelta()
    delta.apply({"events": [{"event": "round", "round": 1}, {"event": "built", "seat": 2}]})
    sent, events_from = delta.apply({"events": changed})
    assert (events_from, sent["events"]) == (0, changed)


def test_an_event_changed_in_place_after_it_was_sent_is_sent_again():
    events = [{"event": "round", "round": 1}]
    delta = EventsDelta()
    delta.apply({"events": events})
    events[0]["round"] = 2
    assert delta.apply({"events": events}) == ({"events": [{"event": "round", "round": 2}]}, 0)


def test_an_observation_without_an_event_log_is_sent_as_it_is():
    observation = {"seat": 1, "board": [1, 2]}
    assert EventsDelta().apply(observation) == (observation, None)
    assert "events_from" not in decide_message(1, "k", observation, OPTIONS, 1000, 0, [], None)


def test_messages_are_one_compact_utf8_line():
    line = encode({"type": "end", "name": "建筑师"})
    assert line == '{"type":"end","name":"建筑师"}\n'.encode()


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"hello", "not JSON: 'hello'"),
        (b"[1, 2]", "not a message object with a \"type\": '[1, 2]'"),
        (b'{"id": 3}', 'not a message object with a "type"'),
        (b"\xff\xfe", "not JSON"),
    ],
)
def test_lines_that_are_not_messages_are_protocol_errors(raw, message):
    with pytest.raises(ProtocolError, match=message.replace("[", r"\[").replace("(", r"\(")):
        parse_line(raw)


def test_act_must_answer_the_decision_asked():
    assert parse_act({"type": "act", "id": 5, "choice": 1}, 5) == 1
    with pytest.raises(ProtocolError, match="act for decision 4, expected 5"):
        parse_act({"type": "act", "id": 4, "choice": 1}, 5)
    with pytest.raises(ProtocolError, match='expected "act", got "ready"'):
        parse_act({"type": "ready"}, 5)
    with pytest.raises(ProtocolError, match='"act" without a "choice"'):
        parse_act({"type": "act", "id": 5}, 5)


def test_ready_may_name_the_bot():
    assert parse_ready({"type": "ready", "name": "Foxy"}) == "Foxy"
    assert parse_ready({"type": "ready"}) == ""
    with pytest.raises(ProtocolError):
        parse_ready({"type": "ready", "name": 3})


def test_a_choice_is_an_index_or_an_equal_option():
    assert resolve_choice(1, OPTIONS) == 1
    assert resolve_choice({"district": "manor", "kind": "build"}, OPTIONS) == 0


@pytest.mark.parametrize("choice", [2, -1, True, "0", 1.0, None, {"kind": "build"}])
def test_anything_else_is_an_illegal_choice(choice):
    with pytest.raises(IllegalChoice):
        resolve_choice(choice, OPTIONS)


def test_the_fallback_ends_the_turn_when_it_can_else_takes_the_first_option():
    assert fallback_index(OPTIONS) == 1
    assert fallback_index([{"kind": "take_gold"}, {"kind": "pass"}]) == 1
    assert fallback_index([{"kind": "draw"}, {"kind": "stop"}]) == 0


def test_stderr_keeps_its_beginning_and_its_end():
    log = StderrLog(cap=10)
    log.add(b"abcde")
    log.add(b"0123456789")
    log.add(b"XYZ")
    assert log.text() == "abcde\n[... 8 bytes of stderr dropped ...]\n89XYZ"


def test_short_stderr_is_kept_whole():
    log = StderrLog(cap=100)
    log.add("日志\n".encode())
    assert log.text() == "日志\n"
