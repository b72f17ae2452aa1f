from typing import Any

from botocore.credentials import Credentials

class Session:
    def get_credentials(self) -> Credentials | None: ...

def get_session(env_vars: Any = ...) -> Session: ...
