"""The dashboard pages and their API: figures with game counts, tables, CSV/JSON, filters,
empty selections and bad filters explained."""

import csv
import io
import json

import pytest

pytestmark = pytest.mark.django_db

PAGES = ["seats", "characters", "cranes", "ratings"]


def figure_ids(html: str) -> list[str]:
    return [part.split('"')[0] for part in html.split('data-figure="')[1:]]


@pytest.mark.parametrize("name", PAGES)
def test_each_dashboard_draws_its_figures_and_says_what_they_rest_on(client, history, name):
    response = client.get(f"/dashboards/{name}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert len(figure_ids(html)) >= 3
    assert "Rests on" in html and "No games in this selection" not in html
    for key in figure_ids(html):
        data = json.loads(
            html.split(f'id="{key}" type="application/json">')[1].split("</script>")[0]
        )
        assert data["data"], key  # every figure has traces
    assert "/dashboards/plotly.min.js" in html and "cdn" not in html.lower()


def test_an_empty_selection_says_so_instead_of_drawing(client, history):
    html = client.get("/dashboards/seats/?title=citadels&until=2000-01-01").content.decode()
    assert "0 games in this selection" in html
    assert "No games in this selection for this figure" in html
    assert figure_ids(html) == []


def test_a_filter_changes_the_figure(client, history):
    every = client.get("/dashboards/seats/?title=citadels").content.decode()
    four = client.get("/dashboards/seats/?title=citadels&players=4").content.decode()
    assert "5 players" in every and "5 players" not in four


def test_bad_filters_get_a_message_not_an_error_page(client, history):
    response = client.get("/dashboards/seats/?players=many")
    assert response.status_code == 400
    assert "players: a whole number" in response.content.decode()
    api = client.get("/api/v1/analytics/seats/?since=soon")
    assert api.status_code == 400 and "since" in api.json()["error"]["fields"]
    empty = client.get("/api/v1/analytics/seats/?players=")
    assert empty.status_code == 400 and "players" in empty.json()["error"]["fields"]
    missing = client.get("/api/v1/analytics/seats/?table=nothing")
    assert (
        missing.status_code == 404
        and "has no table 'nothing'" in missing.json()["error"]["message"]
    )


def test_the_api_refuses_an_empty_title_and_more_bots_than_its_schema_allows(client):
    empty = client.get("/api/v1/analytics/seats/?title=&bot=1")
    assert empty.status_code == 400 and "title" in empty.json()["error"]["fields"]
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/analytics/ratings/"]["get"]
    bots = next(p for p in operation["parameters"] if p["name"] == "bots")
    most = bots["schema"]["maxItems"]
    repeated = "&".join(["bots=1"] * (most + 1))  # counted as given, not once a bot
    many = client.get(f"/api/v1/analytics/ratings/?{repeated}")
    assert many.status_code == 400 and "bots" in many.json()["error"]["fields"]
    assert client.get(f"/api/v1/analytics/ratings/?{repeated[7:]}").status_code == 200
    # digits of other scripts: "²" int() cannot read (it was a 500), "٣" it reads as 3
    for query in ("ratings/?bots=\u00b2", "seats/?players=\u0663"):
        assert client.get(f"/api/v1/analytics/{query}").status_code == 400, query


def test_the_characters_page_lists_base_and_dark_city_characters_with_the_bias_note(
    client, history
):
    html = client.get("/dashboards/characters/").content.decode()
    assert "King 國王" in html and "Witch 女巫" in html
    assert "selection bias" in html


def test_each_figure_table_comes_as_json_and_csv(client, history):
    page = client.get("/api/analytics/cranes/?players=4").json()
    assert page["games"] > 0 and page["configuration_seats"]
    one = client.get("/api/analytics/cranes/?players=4&table=zones&format=json").json()
    assert one["rows"] == page["zones"]
    text = client.get("/api/analytics/cranes/?players=4&table=zones&format=csv")
    assert text["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(text.content.decode())))
    assert [r["tile"] for r in rows] == [r["tile"] for r in page["zones"]]
    # CSV is one table: without ``table``, the page's first
    first = client.get("/api/v1/analytics/cranes/?players=4&format=csv")
    assert first.status_code == 200 and first["Content-Type"].startswith("text/csv")
    assert client.get("/api/analytics/cranes/?table=nothing").status_code == 404


def test_the_analytics_api_is_in_the_openapi_schema(client):
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    for name in PAGES:
        operation = schema["paths"][f"/api/v1/analytics/{name}/"]["get"]
        assert {p["name"] for p in operation["parameters"]} >= {"tournament", "players", "table"}


def test_the_ratings_page_draws_the_bots_picked_and_refuses_a_bad_pick(client, history):
    page = client.get("/api/v1/analytics/ratings/?title=citadels").json()
    assert page["games"] > 0 and page["rating_history"] and page["head_to_head"]
    assert page["score_distribution"] and page["game_lengths"] and page["faults"]
    one = page["bots"][-1]["bot_id"]
    picked = client.get(f"/api/v1/analytics/ratings/?title=citadels&bots={one}").json()
    assert {r["bot_id"] for r in picked["rating_history"]} == {one}
    html = client.get(f"/dashboards/ratings/?title=citadels&bots={one}").content.decode()
    assert f'<option value="{one}" selected>' in html and 'id="plot-rating-history"' in html
    bad = client.get("/api/v1/analytics/ratings/?bots=first")
    assert bad.status_code == 400 and "bots" in bad.json()["error"]["fields"]
    assert client.get("/api/v1/analytics/ratings/?bots=").status_code == 400
    rows = client.get("/api/v1/analytics/ratings/?title=praga&table=head_to_head&format=csv")
    assert rows.content.decode().startswith("bot_a,bot_b,games,pairs,above")
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/v1/analytics/ratings/"]["get"]
    assert "bots" in {p["name"] for p in operation["parameters"]}


def test_plotly_js_is_served_from_the_installed_package(client):
    response = client.get("/dashboards/plotly.min.js")
    body = b"".join(response.streaming_content)
    assert response.status_code == 200 and b"plotly" in body[:2000].lower()
    assert len(body) > 1_000_000


def test_the_navigation_links_the_statistics(client):
    assert 'href="/dashboards/"' in client.get("/").content.decode()


def download_links(html: str) -> list[str]:
    return [
        part.split('"')[0].replace("&amp;", "&")
        for part in html.split('href="/api/v1/analytics/')[1:]
    ]


@pytest.mark.parametrize("name", PAGES)
def test_every_download_answers_after_the_form_sent_its_empty_fields(client, history, name):
    # what pressing Show sends with every filter left at "any"
    form = "tournament=&bot_version=&players=&option=board=&since=&until="
    html = client.get(f"/dashboards/{name}/?{form}").content.decode()
    links = download_links(html)
    assert links and all("tournament=&" not in link for link in links)
    for link in links:
        response = client.get(f"/api/v1/analytics/{link}")
        assert response.status_code == 200, (link, response.content[:200])


def figure_of(html: str, key: str) -> dict:
    return json.loads(html.split(f'id="{key}" type="application/json">')[1].split("</script>")[0])


def test_heatmap_cells_say_their_games_and_thin_ones_are_grey_by_the_chosen_minimum(
    client, history
):
    mixed = client.get("/dashboards/characters/").content.decode()
    assert "Choose a player count above" in mixed  # no heatmap mixing 3-, 4- and 5-seat games
    html = client.get("/dashboards/characters/?players=4&min_games=1000").content.decode()
    grey, rates = figure_of(html, "character-seat")["data"]
    cells = [t for row in rates["text"] for t in row if t]
    assert cells and all("n=" in t for t in cells)
    assert all(z is None for row in rates["z"] for z in row)  # every cell under 1000 games
    assert "fewer than 1000" in html
    html = client.get("/dashboards/characters/?players=4&min_games=1").content.decode()
    grey, rates = figure_of(html, "character-seat")["data"]
    assert all(z is None for row in grey["z"] for z in row)
    # every axis of every figure has a title
    for key in figure_ids(html):
        layout = figure_of(html, key)["layout"]
        for name in ("xaxis", "yaxis"):
            assert layout[name]["title"]["text"], (key, name)
