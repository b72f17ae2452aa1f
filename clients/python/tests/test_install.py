"""The package installs offline into a fresh virtual environment without system site packages
(nothing from PyPI, no setuptools or wheel needed), and works there without boto3 or botocore."""

from __future__ import annotations

import subprocess
import venv
from pathlib import Path

import pytest
from conftest import Answer, StubServer

PACKAGE = Path(__file__).resolve().parents[1]

CHECK = """
import sys
import rewards_client
from rewards_client import MissingDependency, Publisher, Reader
assert sys.argv[2] in rewards_client.__file__, rewards_client.__file__
for name in ("boto3", "botocore"):
    assert name not in sys.modules, name
print(Reader(sys.argv[1]).profile("u").xp)
try:
    Reader(sys.argv[1], sigv4=True, region="eu-west-1")
except MissingDependency as error:
    print(error)
try:
    Publisher("https://sqs.eu-west-1.amazonaws.com/1/q")
except MissingDependency as error:
    print(error)
"""


@pytest.mark.parametrize("editable", [False, True], ids=["wheel", "editable"])
def test_installs_with_no_build_isolation_into_a_bare_venv(tmp_path: Path, stub: StubServer, editable: bool) -> None:
    from test_checks import EMPTY_PROFILE

    venv.create(tmp_path / "venv", with_pip=True, system_site_packages=False)
    python = str(tmp_path / "venv" / "bin" / "python")
    target = ["-e", str(PACKAGE)] if editable else [str(PACKAGE)]
    install = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-build-isolation", "--no-index", "--disable-pip-version-check", *target],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr + install.stdout
    stub.answer("/users/u", Answer(body={**EMPTY_PROFILE, "xp": 7}))
    # Installed: its copy in the venv; editable: this checkout's src/ (a .pth file names it).
    where = str(PACKAGE / "src") if editable else str(tmp_path / "venv")
    run = subprocess.run([python, "-c", CHECK, stub.url, where], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [
        "7",
        "SigV4 signing (Reader(..., sigv4=True)) needs botocore, which is not installed: "
        "python3 -m pip install botocore (or rewards-client[sigv4])",
        "A Publisher without client= needs boto3, which is not installed: python3 -m pip install boto3 (or rewards-client[publish])",
    ]
    metadata = subprocess.run(
        [python, "-m", "pip", "show", "rewards-client"], capture_output=True, text=True, timeout=60
    ).stdout
    # No dependency: botocore and boto3 are extras.
    requires = next(line for line in metadata.splitlines() if line.startswith("Requires:"))
    assert requires.strip() == "Requires:"
