"""`--upstream-url https://...`: an SDK server served over HTTPS (http_upstream.py under
uvicorn) with a self-signed certificate for 127.0.0.1, made with the `openssl` command,
reached through `--upstream-ca`; without it the server is refused; a bad scheme and an
unreadable CA file are refused at start."""

import shutil
import subprocess
import sys

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

from conftest import HERE, gateway_bin
from test_http import free_port, process, wait_for_port  # noqa: F401 (process is a fixture)

OPENSSL_CONFIG = """\
[req]
distinguished_name = dn
x509_extensions = leaf
prompt = no
[dn]
CN = 127.0.0.1
[leaf]
subjectAltName = IP:127.0.0.1
basicConstraints = critical, CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
"""


@pytest.fixture
def certificate(tmp_path):
    """A self-signed certificate for 127.0.0.1 and its key: (cert.pem, key.pem)."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.fail("the openssl command is needed to make the test certificate")
    config = tmp_path / "openssl.cnf"
    config.write_text(OPENSSL_CONFIG)
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        [
            openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "2", "-config", str(config),
            "-keyout", str(key), "-out", str(cert),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


def https_upstream(process, certificate):
    cert, key = certificate
    port = free_port()
    upstream = process([sys.executable, str(HERE / "http_upstream.py"), str(port), str(cert), str(key)])
    wait_for_port(port, upstream)
    return f"https://127.0.0.1:{port}/mcp"


def test_an_https_upstream_is_reached_with_its_certificate_from_upstream_ca(process, certificate):
    url = https_upstream(process, certificate)

    async def main():
        params = StdioServerParameters(
            command=gateway_bin(), args=["--upstream-url", url, "--upstream-ca", str(certificate[0])]
        )
        with anyio.fail_after(60):
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    listed = await session.list_tools()
                    echoed = await session.call_tool("echo", {"text": "over tls"})
                    refused = await session.call_tool("echo", {"text": 1})
                    return listed, echoed, refused

    listed, echoed, refused = anyio.run(main)
    assert [t.name for t in listed.tools] == ["echo"]
    assert not echoed.is_error and echoed.structured_content == {"got": "over tls"}
    assert refused.is_error
    assert refused.content[0].text == "error: invalid arguments for echo:\n$.text: expected string, got integer"


def test_a_self_signed_https_upstream_without_upstream_ca_is_refused_and_logged(process, certificate, tmp_path):
    url = https_upstream(process, certificate)
    errlog = tmp_path / "gateway.log"

    async def main():
        params = StdioServerParameters(command=gateway_bin(), args=["--upstream-url", url])
        with errlog.open("w") as log, anyio.fail_after(60):
            async with stdio_client(params, errlog=log) as (read, write):
                async with ClientSession(read, write) as session:
                    with pytest.raises(MCPError) as refused:
                        await session.initialize()
                    return refused.value

    refused = anyio.run(main)
    assert "the upstream server could not be reached" in str(refused)
    logged = errlog.read_text()
    assert "the upstream server could not be reached: TLS with 127.0.0.1:" in logged
    assert "invalid peer certificate: UnknownIssuer" in logged


@pytest.mark.parametrize(
    "args, message",
    [
        (["--upstream-url", "ftp://127.0.0.1:1/mcp"], "the scheme ftp:// is not supported (http:// or https://)"),
        (["--upstream-url", "https://127.0.0.1:1/mcp", "--upstream-ca", "/nonexistent/ca.pem"], "--upstream-ca /nonexistent/ca.pem: "),
        (["--upstream-url", "https://127.0.0.1:1/mcp", "--upstream-ca", str(HERE / "upstream.py")], "no PEM certificate"),
        (["--upstream-url", "http://127.0.0.1:1/mcp", "--upstream-ca", str(HERE / "upstream.py")], "--upstream-ca needs an https:// URL"),
    ],
)
def test_a_bad_scheme_or_ca_file_is_refused_at_start(args, message):
    done = subprocess.run([gateway_bin(), *args], stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    assert done.returncode == 2
    assert message in done.stderr.decode()
