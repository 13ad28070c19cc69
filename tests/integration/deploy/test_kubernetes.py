"""deploy/kubernetes/: every manifest valid against the Kubernetes API schemas (strict: no
unknown field) of the oldest and newest versions supported, and the pieces agree with each
other and with the settings: names referenced exist, one image, the commands the image knows,
the web's configuration passes `check --deploy`."""

import secrets

import kubernetes_validate
import pytest
import yaml

from .conftest import DEPLOY, manage, operator_env, read_env_file

MANIFESTS = sorted((DEPLOY / "kubernetes").glob("*.yaml"))
# hostUsers with procMount Unmasked and appArmorProfile need at least this version.
VERSIONS = ["1.33.0", "1.37.0"]
IMAGE_COMMANDS = {"web", "worker", "beat", "migrate"}


def resources() -> list[dict]:
    return [doc for path in MANIFESTS for doc in yaml.safe_load_all(path.read_text()) if doc]


def by_kind(kind: str) -> dict[str, dict]:
    return {doc["metadata"]["name"]: doc for doc in resources() if doc["kind"] == kind}


def pod_specs() -> dict[str, dict]:
    workloads = {**by_kind("Deployment"), **by_kind("Job")}
    return {name: doc["spec"]["template"]["spec"] for name, doc in workloads.items()}


def containers() -> list[dict]:
    return [c for spec in pod_specs().values() for c in spec["containers"]]


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("path", MANIFESTS, ids=lambda p: p.name)
def test_each_manifest_is_valid_for_kubernetes(path, version):
    for doc in yaml.safe_load_all(path.read_text()):
        kubernetes_validate.validate(doc, version, strict=True)


def test_there_are_web_worker_and_beat_deployments_a_service_and_an_autoscaler():
    assert set(by_kind("Deployment")) == {"arena-web", "arena-worker", "arena-beat"}
    (hpa,) = by_kind("HorizontalPodAutoscaler").values()
    assert hpa["spec"]["scaleTargetRef"]["name"] == "arena-worker"
    worker = pod_specs()["arena-worker"]["containers"][0]
    assert worker["resources"]["requests"]["cpu"]  # utilisation is measured against it
    (service,) = by_kind("Service").values()
    web_labels = by_kind("Deployment")["arena-web"]["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= web_labels.items()
    assert by_kind("Deployment")["arena-beat"]["spec"]["replicas"] == 1


def test_every_pod_runs_the_one_image_with_a_command_it_knows():
    assert len({c["image"] for c in containers()}) == 1
    assert {c["args"][0] for c in containers()} == IMAGE_COMMANDS


def test_what_the_pods_reference_exists():
    config_maps, secrets_, claims = (
        by_kind("ConfigMap"),
        by_kind("Secret"),
        by_kind("PersistentVolumeClaim"),
    )
    for container in containers():
        for source in container["envFrom"]:
            if "configMapRef" in source:
                assert source["configMapRef"]["name"] in config_maps
            else:
                assert source["secretRef"]["name"] in secrets_
    for spec in pod_specs().values():
        for volume in spec.get("volumes", []):
            if "persistentVolumeClaim" in volume:
                assert volume["persistentVolumeClaim"]["claimName"] in claims


def test_every_variable_they_set_is_one_the_settings_read():
    known = set(read_env_file(DEPLOY / "env.example"))
    set_here = {key for doc in (*by_kind("ConfigMap").values(), *by_kind("Secret").values())
                for key in doc.get("data", doc.get("stringData", {}))}  # fmt: skip
    set_here |= {e["name"] for c in containers() for e in c.get("env", [])}
    assert set_here <= known, set_here - known


def test_the_workers_pods_get_what_bubblewrap_needs():
    worker = pod_specs()["arena-worker"]
    assert worker["hostUsers"] is False
    assert worker["securityContext"]["seccompProfile"]["type"] == "Localhost"
    assert worker["containers"][0]["securityContext"]["procMount"] == "Unmasked"


def test_the_web_probe_asks_for_an_allowed_host():
    (config,) = by_kind("ConfigMap").values()
    probe = pod_specs()["arena-web"]["containers"][0]["readinessProbe"]["httpGet"]
    host = {h["name"]: h["value"] for h in probe["httpHeaders"]}["Host"]
    assert host in config["data"]["ARENA_ALLOWED_HOSTS"].split(",")


@pytest.mark.slow
def test_the_web_pods_configuration_passes_check_deploy(tmp_path):
    (config,) = by_kind("ConfigMap").values()
    env = operator_env(
        **{
            **config["data"],
            "ARENA_BROKER_URL": "filesystem://",
            "ARENA_MEDIA_ROOT": str(tmp_path / "media"),
        },
        ARENA_SECRET_KEY=secrets.token_urlsafe(50),
        ARENA_DATABASE_URL=f"sqlite:///{tmp_path / 'arena.sqlite3'}",
        ARENA_VAR_DIR=str(tmp_path / "var"),
    )
    checked = manage(env, "check", "--deploy", "--fail-level", "WARNING")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_workers_mount_no_web_volume_and_fetch_artifacts_from_the_web_service():
    (config,) = by_kind("ConfigMap").values()
    worker = pod_specs()["arena-worker"]
    env = {e["name"]: e["value"] for e in worker["containers"][0]["env"]}
    host = env["ARENA_ARTIFACT_URL"].removeprefix("http://")
    assert host in by_kind("Service")  # the web's Service
    assert host in config["data"]["ARENA_ALLOWED_HOSTS"].split(",")
    assert [v["name"] for v in worker["volumes"]] == ["bot-cache", "tmp"]
    (secret,) = by_kind("Secret").values()
    assert "ARENA_ARTIFACT_SECRET" in secret["stringData"]
