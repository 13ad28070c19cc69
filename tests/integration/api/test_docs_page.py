"""The interactive API documentation: Swagger UI served from the installed sidecar package
(no CDN), linked from the navigation, drawing the served schema in a real browser."""

import re
from urllib.parse import urlsplit

import pytest

from tests.browser.test_first_tournament import page  # noqa: F401  (the Chromium fixture)


@pytest.mark.django_db
def test_the_navigations_api_link_opens_the_documentation_page(client):
    home = client.get("/").content.decode()
    link = re.search(r'<a href="([^"]+)">API</a>', home).group(1)
    response = client.get(link)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert "Content-Disposition" not in response


@pytest.mark.django_db
def test_the_documentation_page_loads_nothing_from_another_site(client):
    html = client.get("/api/v1/docs/").content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any("drf_spectacular_sidecar/swagger-ui-dist" in s for s in sources)
    assert not [s for s in sources if urlsplit(s).netloc], sources


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_documentation_page_draws_every_operation_offline(page, live_server):  # noqa: F811
    here = urlsplit(live_server.url).netloc
    elsewhere = []

    def only_here(route):
        if urlsplit(route.request.url).netloc == here:
            return route.continue_()
        elsewhere.append(route.request.url)
        return route.abort()

    page.route("**/*", only_here)
    page.goto(live_server.url + "/api/v1/docs/")
    page.wait_for_selector(".opblock-summary-path", timeout=60_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/v1/tournaments/{id}/start/" in p for p in paths)
    assert any("/api/v1/bot-versions/" in p for p in paths)
    assert elsewhere == []
