"""The PEP 517 build backend of rewards-client: the standard library and nothing else.

Why not setuptools: the setuptools a fresh virtual environment gets (Python 3.11's ensurepip
bundles 65.5) builds no wheel without the separate `wheel` package, and Python 3.12's gets no
setuptools at all, so `pip install --no-build-isolation ./clients/python` would fail there
offline. This backend reads `[project]` from pyproject.toml and writes a pure-Python wheel
(py3-none-any) of src/rewards_client, an editable wheel (a .pth file naming src/) or an sdist.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import time
import tomllib
import zipfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "rewards_client"
# Zip entries need a date from 1980 on; SOURCE_DATE_EPOCH makes a build reproducible.
EPOCH = max(int(os.environ.get("SOURCE_DATE_EPOCH", "315532800")), 315532800)


def _project() -> dict[str, Any]:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return tomllib.load(file)["project"]


def _name_version() -> tuple[str, str]:
    project = _project()
    # The wheel's file and dist-info names: the normalised name with underscores.
    return re.sub(r"[-_.]+", "_", project["name"]).lower(), project["version"]


def _metadata() -> str:
    project = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project.get('description', '')}",
        f"Requires-Python: {project.get('requires-python', '>=3')}",
    ]
    lines += [f"Requires-Dist: {requirement}" for requirement in project.get("dependencies", [])]
    for extra, requirements in project.get("optional-dependencies", {}).items():
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {requirement}; extra == "{extra}"' for requirement in requirements]
    readme = project.get("readme")
    if readme:
        lines.append("Description-Content-Type: text/markdown")
        return "\n".join(lines) + "\n\n" + (ROOT / readme).read_text(encoding="utf-8")
    return "\n".join(lines) + "\n"


def _wheel_file() -> str:
    return "Wheel-Version: 1.0\nGenerator: rewards_client_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _package_files() -> list[tuple[str, bytes]]:
    source = ROOT / "src" / PACKAGE
    files = [
        (path.relative_to(source.parent).as_posix(), path.read_bytes())
        for path in sorted(source.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    ]
    return files


def _write_wheel(directory: str, files: list[tuple[str, bytes]]) -> str:
    name, version = _name_version()
    dist_info = f"{name}-{version}.dist-info"
    files = [
        *files,
        (f"{dist_info}/METADATA", _metadata().encode("utf-8")),
        (f"{dist_info}/WHEEL", _wheel_file().encode("utf-8")),
    ]
    record = io.StringIO()
    for path, data in files:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
        record.write(f"{path},sha256={digest},{len(data)}\n")
    record.write(f"{dist_info}/RECORD,,\n")
    files.append((f"{dist_info}/RECORD", record.getvalue().encode("utf-8")))
    wheel_name = f"{name}-{version}-py3-none-any.whl"
    stamp = time.gmtime(EPOCH)[:6]
    with zipfile.ZipFile(Path(directory) / wheel_name, "w", compression=zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files:
            info = zipfile.ZipInfo(path, date_time=stamp)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return wheel_name


# PEP 517 hooks: nothing is needed to build.
def get_requires_for_build_wheel(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []


def get_requires_for_build_editable(config_settings: dict[str, Any] | None = None) -> list[str]:
    return []


def prepare_metadata_for_build_wheel(metadata_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    name, version = _name_version()
    dist_info = Path(metadata_directory) / f"{name}-{version}.dist-info"
    dist_info.mkdir(parents=True, exist_ok=True)
    (dist_info / "METADATA").write_text(_metadata(), encoding="utf-8")
    (dist_info / "WHEEL").write_text(_wheel_file(), encoding="utf-8")
    return dist_info.name


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    return _write_wheel(wheel_directory, _package_files())


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, Any] | None = None,
    metadata_directory: str | None = None,
) -> str:
    # PEP 660: a .pth file putting src/ on sys.path, so edits show without a reinstall.
    return _write_wheel(wheel_directory, [(f"{PACKAGE}.pth", f"{ROOT / 'src'}\n".encode())])


def build_sdist(sdist_directory: str, config_settings: dict[str, Any] | None = None) -> str:
    name, version = _name_version()
    top = f"{name}-{version}"
    sources = [ROOT / "pyproject.toml", ROOT / "README.md", *sorted((ROOT / "_build_backend").glob("*.py"))]
    sources += [ROOT / "src" / path for path, _ in _package_files()]
    sdist_name = f"{top}.tar.gz"
    with tarfile.open(Path(sdist_directory) / sdist_name, "w:gz", format=tarfile.PAX_FORMAT) as sdist:

        def add(path: str, data: bytes) -> None:
            info = tarfile.TarInfo(f"{top}/{path}")
            info.size, info.mtime, info.mode = len(data), EPOCH, 0o644
            sdist.addfile(info, io.BytesIO(data))

        add("PKG-INFO", _metadata().encode("utf-8"))
        for source in sources:
            add(source.relative_to(ROOT).as_posix(), source.read_bytes())
    return sdist_name
