"""The interactive API documentation: Swagger UI and Redoc served from the installed sidecar
package (no CDN), linked from the navigation, drawing the served schema in a real browser."""

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
@pytest.mark.parametrize(
    "page_url, bundle",
    [("/api/v1/docs/", "swagger-ui-dist"), ("/api/v1/redoc/", "redoc")],
)
def test_the_documentation_pages_load_nothing_from_another_site(client, page_url, bundle):
    response = client.get(page_url)
    assert response.status_code == 200
    sources = re.findall(r'(?:src|href)="([^"]+)"', response.content.decode())
    assert any(f"drf_spectacular_sidecar/{bundle}" in s for s in sources)
    assert not [s for s in sources if urlsplit(s).netloc], sources


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_documentation_page_draws_every_operation_offline(page, live_server):  # noqa: F811
    elsewhere = only_this_site(page, live_server)
    page.goto(live_server.url + "/api/v1/docs/")
    page.wait_for_selector(".opblock-summary-path", timeout=60_000)
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/v1/tournaments/{id}/start/" in p for p in paths)
    assert any("/api/v1/bot-versions/" in p for p in paths)
    assert elsewhere == []


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_redoc_page_draws_the_operations_offline(page, live_server):  # noqa: F811
    elsewhere = only_this_site(page, live_server)
    page.goto(live_server.url + "/api/v1/redoc/")
    heading = page.locator("h2", has_text="Replace your API token")
    heading.first.wait_for(timeout=60_000)
    assert elsewhere == []


def only_this_site(page, live_server) -> list[str]:  # noqa: F811
    """Abort the page's requests to any other site; the list fills with their URLs."""
    here = urlsplit(live_server.url).netloc
    elsewhere = []

    def only_here(route):
        if urlsplit(route.request.url).netloc == here:
            return route.continue_()
        elsewhere.append(route.request.url)
        return route.abort()

    page.route("**/*", only_here)
    return elsewhere
