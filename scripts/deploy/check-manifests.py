#!/usr/bin/env python3
"""Checks rendered Kubernetes manifests for what schemas cannot see (make deploy-check).

Usage: scripts/deploy/check-manifests.py RENDERED.yaml...   (the output of `kubectl kustomize OVERLAY`)

For each file: selectors match pod labels; Services, probes and the CronJob hit real container
ports and the services' real routes; the PersistentVolumeClaim is mounted where DIGEST_DATA_DIR
points; digest-web is one replica with Recreate; every container is locked down (non-root,
read-only root with a writable /tmp, no capabilities, no privilege escalation, seccomp) and has
requests and limits; Secrets are referenced, optional, never rendered; the Ingress body size and
timeouts equal deploy/proxy/nginx.conf.template's, server by server. Also checks
deploy/compose/compose.yaml: Dockerfiles, proxy upstreams, the data volume. Before that it mutates the
first file in memory and makes sure each check catches its mutation (so the checks can fail).
Prints one line per problem and exits 1 when there is any.
"""

import copy
import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
NGINX_TEMPLATE = ROOT / "deploy/proxy/nginx.conf.template"
# Which nginx upstream serves which Kubernetes Service.
UPSTREAM_OF_SERVICE = {"ingredient-api": "ingredient_api", "digest-web": "digest_web"}
ROUTES = {
    "ingredient-api": ROOT / "services/ingredient-api/src/routes/mod.rs",
    "digest-web": ROOT / "services/digest-web/src/web/routes/mod.rs",
}
DOCKERFILES = {
    "ingredient-api": ROOT / "deploy/docker/ingredient-api.Dockerfile",
    "digest-web": ROOT / "deploy/docker/digest-web.Dockerfile",
}


def by_kind(docs, kind):
    return [d for d in docs if d.get("kind") == kind]


def named(docs, kind, name):
    for d in by_kind(docs, kind):
        if d["metadata"]["name"] == name:
            return d
    return None


def selects(selector, labels):
    return bool(selector) and all(labels.get(k) == v for k, v in selector.items())


def pod_specs(docs):
    """(owner, pod template metadata, pod spec) of every Deployment and CronJob."""
    for d in by_kind(docs, "Deployment"):
        yield d["metadata"]["name"], d["spec"]["template"]["metadata"], d["spec"]["template"]["spec"]
    for d in by_kind(docs, "CronJob"):
        t = d["spec"]["jobTemplate"]["spec"]["template"]
        yield d["metadata"]["name"], t.get("metadata", {}), t["spec"]


def container_env(docs, container):
    """The container's plain environment: envFrom ConfigMaps, then env values."""
    env = {}
    for src in container.get("envFrom", []):
        ref = src.get("configMapRef")
        cm = ref and named(docs, "ConfigMap", ref["name"])
        if cm:
            env.update(cm.get("data", {}))
    for e in container.get("env", []):
        if "value" in e:
            env[e["name"]] = e["value"]
    return env


def resolve_port(container, port):
    """The containerPort a probe or targetPort names (by name or number), or None."""
    for p in container.get("ports", []):
        if port in (p.get("name"), p["containerPort"]):
            return p["containerPort"]
    return None


def nginx_servers(text):
    """server_name's first name -> {directive: value} of that server block."""
    servers = {}
    for block in re.findall(r"server\s*\{(.*?)\n    \}", text, re.S):
        directives = dict(re.findall(r"^\s*([a-z_]+)\s+([^;{]+);", block, re.M))
        names = directives.get("server_name", "").split()
        proxy = re.search(r"proxy_pass\s+http://([a-z_]+)", block)
        directives["upstream"] = proxy.group(1) if proxy else None
        if names:
            servers[names[0]] = directives
    return servers


def seconds(value):
    m = re.fullmatch(r"(\d+)(s?)", str(value).strip())
    return int(m.group(1)) if m else None


def check_selectors(docs):
    errors = []
    pods = {name: meta.get("labels", {}) for name, meta, _ in pod_specs(docs)}
    for d in by_kind(docs, "Deployment"):
        name = d["metadata"]["name"]
        if not selects(d["spec"]["selector"].get("matchLabels"), pods[name]):
            errors.append(f"Deployment {name}: selector does not match its pod labels")
    for kind in ("Service", "PodDisruptionBudget"):
        for d in by_kind(docs, kind):
            sel = d["spec"]["selector"]
            sel = sel.get("matchLabels", sel) if kind == "PodDisruptionBudget" else sel
            if not any(selects(sel, labels) for labels in pods.values()):
                errors.append(f"{kind} {d['metadata']['name']}: selector matches no pods")
    for d in by_kind(docs, "HorizontalPodAutoscaler"):
        ref = d["spec"]["scaleTargetRef"]
        if ref["kind"] != "Deployment" or not named(docs, "Deployment", ref["name"]):
            errors.append(f"HorizontalPodAutoscaler {d['metadata']['name']}: no such target")
    return errors


def check_ports_and_probes(docs):
    errors = []
    for d in by_kind(docs, "Deployment"):
        name = d["metadata"]["name"]
        for c in d["spec"]["template"]["spec"]["containers"]:
            env = container_env(docs, c)
            declared = {p["containerPort"] for p in c.get("ports", [])}
            if str(env.get("PORT")) not in {str(p) for p in declared}:
                errors.append(f"{name}: PORT={env.get('PORT')} is not a containerPort {declared}")
            dockerfile = DOCKERFILES.get(name)
            if dockerfile and f"EXPOSE {env.get('PORT')}" not in dockerfile.read_text():
                errors.append(f"{name}: the image does not EXPOSE PORT={env.get('PORT')}")
            for kind in ("readinessProbe", "livenessProbe"):
                probe = c.get(kind)
                if not probe or "httpGet" not in probe:
                    errors.append(f"{name}: no HTTP {kind}")
                    continue
                get = probe["httpGet"]
                if resolve_port(c, get["port"]) is None:
                    errors.append(f"{name}: {kind} port {get['port']} is no containerPort")
                if get["path"] != "/health":
                    errors.append(f"{name}: {kind} path {get['path']} is not /health")
                routes = ROUTES.get(name)
                if routes and f'"{get["path"]}"' not in routes.read_text():
                    errors.append(f"{name}: {kind} path {get['path']} is not a route of the service")
    for s in by_kind(docs, "Service"):
        for d in by_kind(docs, "Deployment"):
            if not selects(s["spec"]["selector"], d["spec"]["template"]["metadata"]["labels"]):
                continue
            c = d["spec"]["template"]["spec"]["containers"][0]
            for p in s["spec"]["ports"]:
                if resolve_port(c, p.get("targetPort", p["port"])) is None:
                    errors.append(f"Service {s['metadata']['name']}: targetPort {p.get('targetPort')} is no containerPort")
    return errors


def service_port(docs, service, port):
    s = named(docs, "Service", service)
    if not s:
        return None
    for p in s["spec"]["ports"]:
        if port in (p.get("name"), p["port"]):
            return p["port"]
    return None


def check_digest_web(docs):
    errors = []
    d = named(docs, "Deployment", "digest-web")
    if not d:
        return ["no digest-web Deployment"]
    if d["spec"].get("replicas") != 1:
        errors.append("digest-web: replicas must be 1 (single writer)")
    if d["spec"].get("strategy", {}).get("type") != "Recreate":
        errors.append("digest-web: strategy must be Recreate (never two writers)")
    pod = d["spec"]["template"]["spec"]
    c = pod["containers"][0]
    data_dir = container_env(docs, c).get("DIGEST_DATA_DIR")
    mounts = {m["mountPath"]: m["name"] for m in c.get("volumeMounts", [])}
    volumes = {v["name"]: v for v in pod.get("volumes", [])}
    volume = volumes.get(mounts.get(data_dir, ""), {})
    claim = volume.get("persistentVolumeClaim", {}).get("claimName")
    if not claim:
        errors.append(f"digest-web: no PersistentVolumeClaim mounted at DIGEST_DATA_DIR={data_dir}")
    elif not named(docs, "PersistentVolumeClaim", claim):
        errors.append(f"digest-web: PersistentVolumeClaim {claim} is not defined")
    for cj in by_kind(docs, "CronJob"):
        spec = cj["spec"]["jobTemplate"]["spec"]
        container = spec["template"]["spec"]["containers"][0]
        env = container_env(docs, container)
        script = " ".join(container.get("args", []) + container.get("command", []))
        url = env.get("REFRESH_URL", "")
        m = re.fullmatch(r"http://([a-z0-9-]+):(\d+)(/\S*)", url)
        if not m or service_port(docs, m.group(1), int(m.group(2))) is None:
            errors.append(f"CronJob {cj['metadata']['name']}: {url!r} is not a Service port")
        elif m.group(3) != "/api/refresh" or "-X POST" not in script:
            errors.append(f"CronJob {cj['metadata']['name']}: does not POST /api/refresh")
        limit = int(container_env(docs, c).get("DIGEST_REFRESH_TIMEOUT_SECS", 120))
        max_time = re.search(r"--max-time (\d+)", script)
        if not max_time or int(max_time.group(1)) <= limit:
            errors.append(f"CronJob: curl --max-time must exceed the {limit} s refresh limit")
        elif spec.get("activeDeadlineSeconds", 0) <= int(max_time.group(1)):
            errors.append("CronJob: activeDeadlineSeconds must exceed curl's --max-time")
        if cj["spec"].get("concurrencyPolicy") != "Forbid":
            errors.append("CronJob: concurrencyPolicy must be Forbid")
    return errors


def check_security(docs):
    errors = []
    for owner, _, pod in pod_specs(docs):
        psc = pod.get("securityContext", {})
        mounts_ok = {v["name"] for v in pod.get("volumes", []) if "emptyDir" in v}
        for c in pod["containers"]:
            sc = c.get("securityContext", {})
            where = f"{owner}/{c['name']}"
            if not (sc.get("runAsNonRoot", psc.get("runAsNonRoot")) is True):
                errors.append(f"{where}: runAsNonRoot is not true")
            if sc.get("allowPrivilegeEscalation") is not False:
                errors.append(f"{where}: allowPrivilegeEscalation is not false")
            if sc.get("capabilities", {}).get("drop") != ["ALL"]:
                errors.append(f"{where}: capabilities do not drop ALL")
            seccomp = sc.get("seccompProfile", psc.get("seccompProfile", {}))
            if seccomp.get("type") != "RuntimeDefault":
                errors.append(f"{where}: seccomp profile is not RuntimeDefault")
            if sc.get("readOnlyRootFilesystem") is not True:
                errors.append(f"{where}: root filesystem is not read-only")
            res = c.get("resources", {})
            for part in ("requests", "limits"):
                if not {"cpu", "memory"} <= set(res.get(part, {})):
                    errors.append(f"{where}: resources.{part} lacks cpu or memory")
            if owner in ROUTES and not any(
                m["mountPath"] == "/tmp" and m["name"] in mounts_ok
                for m in c.get("volumeMounts", [])
            ):
                errors.append(f"{where}: no writable emptyDir at /tmp")
            for e in c.get("env", []):
                ref = e.get("valueFrom", {}).get("secretKeyRef")
                if ref and ref.get("optional") is not True:
                    errors.append(f"{where}: secret {ref['name']}/{ref['key']} is not optional")
    for d in by_kind(docs, "Secret"):
        errors.append(f"Secret {d['metadata']['name']} is rendered: secrets are never committed")
    return errors


def check_ingress(docs, nginx_text):
    errors = []
    servers = nginx_servers(nginx_text)
    annotations = {
        "nginx.ingress.kubernetes.io/proxy-body-size": ("client_max_body_size", str),
        "nginx.ingress.kubernetes.io/proxy-read-timeout": ("proxy_read_timeout", seconds),
        "nginx.ingress.kubernetes.io/proxy-send-timeout": ("proxy_send_timeout", seconds),
    }
    ingresses = by_kind(docs, "Ingress")
    if {i["spec"]["rules"][0]["http"]["paths"][0]["backend"]["service"]["name"] for i in ingresses} != set(UPSTREAM_OF_SERVICE):
        errors.append("Ingress: each service needs exactly its own Ingress")
    for ing in ingresses:
        name = ing["metadata"]["name"]
        for rule in ing["spec"]["rules"]:
            for path in rule["http"]["paths"]:
                backend = path["backend"]["service"]
                port = backend["port"].get("name", backend["port"].get("number"))
                if service_port(docs, backend["name"], port) is None:
                    errors.append(f"Ingress {name}: backend {backend['name']}:{port} is no Service port")
                if path["path"] != "/" or path["pathType"] != "Prefix":
                    errors.append(f"Ingress {name}: must route every path (/, Prefix) like nginx")
                upstream = UPSTREAM_OF_SERVICE.get(backend["name"])
                server = next((s for s in servers.values() if s["upstream"] == upstream), None)
                if not server:
                    errors.append(f"Ingress {name}: nginx has no server for {backend['name']}")
                    continue
                prefix = server["server_name"].split()[0].split(".")[0] + "."
                if not rule["host"].startswith(prefix):
                    errors.append(f"Ingress {name}: host {rule['host']} does not start with {prefix} as in nginx")
                for key, (directive, norm) in annotations.items():
                    have = ing["metadata"].get("annotations", {}).get(key)
                    want = server.get(directive)
                    if have is None or want is None or norm(have) != norm(want):
                        errors.append(f"Ingress {name}: {key}={have!r} but nginx {directive} {want!r}")
    return errors


def check_compose(compose, dockerfiles_dir=ROOT / "deploy/docker"):
    """deploy/compose/compose.yaml: each service builds its Dockerfile, the proxy's upstreams
    name the services on their ports, and digest-web's volume is where DIGEST_DATA_DIR points."""
    errors = []
    services = compose.get("services", {})
    for name in UPSTREAM_OF_SERVICE:
        svc = services.get(name)
        if not svc:
            errors.append(f"compose: no service {name}")
            continue
        dockerfile = ROOT / "deploy/compose" / svc["build"]["context"] / svc["build"]["dockerfile"]
        if dockerfile.resolve() != (dockerfiles_dir / f"{name}.Dockerfile").resolve():
            errors.append(f"compose: {name} does not build deploy/docker/{name}.Dockerfile")
        port = re.search(r"^EXPOSE (\d+)", (dockerfiles_dir / f"{name}.Dockerfile").read_text(), re.M)
        upstream = services.get("proxy", {}).get("environment", {}).get(
            name.upper().replace("-", "_") + "_UPSTREAM")
        if not port or upstream != f"{name}:{port.group(1)}":
            errors.append(f"compose: proxy upstream for {name} is {upstream!r}, not {name}:<EXPOSE>")
    web = services.get("digest-web", {})
    data_dir = web.get("environment", {}).get("DIGEST_DATA_DIR")
    if not any(str(v).endswith(f":{data_dir}") for v in web.get("volumes", [])):
        errors.append(f"compose: no volume at digest-web's DIGEST_DATA_DIR={data_dir}")
    return errors


CHECKS = [check_selectors, check_ports_and_probes, check_digest_web, check_security]


def check(docs, nginx_text):
    errors = []
    for c in CHECKS:
        errors += c(docs)
    return errors + check_ingress(docs, nginx_text)


def mutations(docs):
    """(what, broken copy) pairs: each must make check() report at least one problem."""

    def mutate(what, fn):
        broken = copy.deepcopy(docs)
        fn(broken)
        return what, broken

    api = lambda ds: named(ds, "Deployment", "ingredient-api")  # noqa: E731
    web = lambda ds: named(ds, "Deployment", "digest-web")  # noqa: E731
    container = lambda d: d["spec"]["template"]["spec"]["containers"][0]  # noqa: E731
    return [
        mutate("pod label renamed", lambda ds: api(ds)["spec"]["template"]["metadata"]["labels"].update({"app.kubernetes.io/name": "x"})),
        mutate("probe on another port", lambda ds: container(api(ds))["readinessProbe"]["httpGet"].update({"port": 9999})),
        mutate("probe on another path", lambda ds: container(web(ds))["livenessProbe"]["httpGet"].update({"path": "/healthz"})),
        mutate("data volume moved", lambda ds: container(web(ds))["volumeMounts"][0].update({"mountPath": "/var/data"})),
        mutate("two digest-web replicas", lambda ds: web(ds)["spec"].update({"replicas": 2})),
        mutate("body size differs", lambda ds: named(ds, "Ingress", "ingredient-api")["metadata"]["annotations"].update({"nginx.ingress.kubernetes.io/proxy-body-size": "1m"})),
        mutate("timeout differs", lambda ds: named(ds, "Ingress", "digest-web")["metadata"]["annotations"].update({"nginx.ingress.kubernetes.io/proxy-read-timeout": "60"})),
        mutate("root filesystem writable", lambda ds: container(api(ds))["securityContext"].update({"readOnlyRootFilesystem": False})),
        mutate("secret required", lambda ds: container(web(ds))["env"][0]["valueFrom"]["secretKeyRef"].update({"optional": False})),
        mutate("Service to a missing port", lambda ds: named(ds, "Service", "digest-web")["spec"]["ports"][0].update({"targetPort": "web"})),
    ]


def main(paths):
    nginx_text = NGINX_TEMPLATE.read_text()
    compose = yaml.safe_load((ROOT / "deploy/compose/compose.yaml").read_text())
    failed = False
    for e in check_compose(compose):
        print(e)
        failed = True
    broken = copy.deepcopy(compose)
    broken["services"]["digest-web"]["volumes"] = []
    if not check_compose(broken):
        print("check-manifests: the checks miss a mutation: compose data volume removed")
        failed = True
    for i, path in enumerate(paths):
        docs = [d for d in yaml.safe_load_all(Path(path).read_text()) if d]
        if i == 0:
            for what, broken in mutations(docs):
                if not check(broken, nginx_text):
                    print(f"check-manifests: the checks miss a mutation: {what}")
                    failed = True
        errors = check(docs, nginx_text)
        for e in errors:
            print(f"{path}: {e}")
        failed |= bool(errors)
        if not errors:
            print(f"check-manifests: {path}: {len(docs)} objects consistent")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1:]))
