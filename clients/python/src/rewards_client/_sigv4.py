"""SigV4 signing of the read API's requests with botocore, imported only when signing is asked for."""

from __future__ import annotations

import importlib
import os
import re
import urllib.parse
from typing import Any

from .errors import InvalidReaderOption, MissingDependency

_REGION_IN_HOST = (
    # A Lambda function URL: <id>.lambda-url.<region>.on.aws
    re.compile(r"\.lambda-url\.([a-z0-9-]+)\.on\.aws$"),
    # An API Gateway endpoint: <id>.execute-api.<region>.amazonaws.com
    re.compile(r"\.execute-api\.([a-z0-9-]+)\.amazonaws\.com$"),
)


def region_of(url: str) -> str | None:
    """The region a function URL or an API Gateway endpoint names, else AWS_REGION's (or AWS_DEFAULT_REGION's)."""
    host = urllib.parse.urlsplit(url).hostname or ""
    for pattern in _REGION_IN_HOST:
        match = pattern.search(host)
        if match:
            return match.group(1)
    return os.environ.get("AWS_REGION") or os.environ.get("AWS_DEFAULT_REGION") or None


class SigV4Signer:
    """Signs each request afresh (a signature is valid for minutes) with the credentials given,
    or else the ones botocore finds (environment, shared profile, instance or task role)."""

    def __init__(self, service: str, region: str, credentials: object | None) -> None:
        try:
            self._auth: Any = importlib.import_module("botocore.auth")
            self._awsrequest: Any = importlib.import_module("botocore.awsrequest")
            self._session: Any = importlib.import_module("botocore.session")
        except ImportError:
            raise MissingDependency("botocore", "sigv4", "SigV4 signing (Reader(..., sigv4=True))") from None
        if credentials is not None and not callable(getattr(credentials, "get_frozen_credentials", None)):
            raise InvalidReaderOption(
                "credentials",
                "botocore credentials (botocore.credentials.Credentials, or a session's get_credentials()), "
                f"not {type(credentials).__name__}",
            )
        self.service = service
        self.region = region
        self._credentials: Any = credentials

    def _frozen(self) -> Any:
        if self._credentials is None:
            try:
                self._credentials = self._session.get_session().get_credentials()
            except Exception as error:  # a provider that failed (a role it could not assume, …)
                raise InvalidReaderOption("credentials", f"botocore could not get AWS credentials: {error}") from error
            if self._credentials is None:
                raise InvalidReaderOption(
                    "credentials",
                    "SigV4 signing asked for, and botocore found no AWS credentials "
                    "(environment, shared profile, instance or task role): give credentials=, or sigv4=False",
                )
        # Refreshable credentials (a role's) renew here when they are about to expire.
        return self._credentials.get_frozen_credentials()

    def sign(self, method: str, url: str, headers: dict[str, str]) -> dict[str, str]:
        """``headers`` with the SigV4 ones added (Authorization, X-Amz-Date, X-Amz-Security-Token)."""
        request = self._awsrequest.AWSRequest(method=method, url=url, headers=dict(headers))
        self._auth.SigV4Auth(self._frozen(), self.service, self.region).add_auth(request)
        return {str(name): str(value) for name, value in request.headers.items()}
