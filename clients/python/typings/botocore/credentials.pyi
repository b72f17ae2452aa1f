from typing import NamedTuple

class ReadOnlyCredentials(NamedTuple):
    access_key: str
    secret_key: str
    token: str | None

class Credentials:
    access_key: str
    secret_key: str
    token: str | None
    def __init__(self, access_key: str, secret_key: str, token: str | None = None, method: str | None = None) -> None: ...
    def get_frozen_credentials(self) -> ReadOnlyCredentials: ...
