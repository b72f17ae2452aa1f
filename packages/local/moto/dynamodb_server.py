"""moto's DynamoDB server, fixed for concurrent transactional use.

Started by packages/local (startDynamo.ts) as a child process. It prints one JSON line,
{"port": N}, once it listens, and exits when its standard input closes, so it can never
outlive the Node process that started it, however that process ends.

Two defects of moto 5.2.x are fixed here (see the README, "The embedded local AWS"):

1. The server is threaded and the DynamoDB backend takes no lock. Concurrent transactions
   fail with HTTP 500 ("dictionary changed size during iteration") and a cancelled
   transaction's rollback can erase a concurrent commit. Every request is serialised
   behind one lock; DynamoDB itself is serialisable per item, so this only costs speed.
2. TransactWriteItems deep-copies every table it touches before it starts, so its latency
   grows with the table. The table copy is skipped and only the items the transaction
   touches are snapshotted and restored.

Both patches check the moto version and the shape of what they patch, and fail at start
rather than silently misbehave after an upgrade.
"""

from __future__ import annotations

import copy
import json
import logging
import os
import sys
import threading
from typing import Any

SUPPORTED_MOTO = "5.2."


def _fail(message: str) -> None:
    sys.stderr.write(f"dynamodb_server: {message}\n")
    sys.stderr.flush()
    sys.exit(3)


try:
    from importlib.metadata import version

    moto_version = version("moto")
    from moto.dynamodb import models as dynamodb_models
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.table import Table
    from moto.moto_server.werkzeug_app import create_backend_app
    from werkzeug.serving import make_server
except ImportError as error:  # the Node side turns this exit code into an install hint
    _fail(f"moto[server] is not importable: {error}")

if not moto_version.startswith(SUPPORTED_MOTO):
    _fail(f"moto {moto_version} is installed; this launcher is written for {SUPPORTED_MOTO}x")
if getattr(dynamodb_models, "copy", None) is not copy:
    _fail("moto.dynamodb.models no longer uses copy.deepcopy as patched here")


class _TableCopySkipper:
    """Stands in for the `copy` module inside moto.dynamodb.models.

    moto's transact_write_items deep-copies each touched Table as its rollback backup and
    assigns it back on failure. Returning the live table makes that backup and restore a
    no-op; the item-level snapshot in `_transact_write_items` does the real rollback.
    """

    def __getattr__(self, name: str) -> Any:
        return getattr(copy, name)

    @staticmethod
    def deepcopy(value: Any, memo: dict[int, Any] | None = None) -> Any:
        if isinstance(value, Table):
            return value
        return copy.deepcopy(value, memo)


def _touched_key(backend: DynamoDBBackend, operation: dict[str, Any]) -> tuple[Table, DynamoType, DynamoType | None] | None:
    (kind, body), = operation.items()
    table = backend.tables.get(body.get("TableName"))
    if table is None:
        return None  # moto itself reports the missing table
    attributes = body.get("Item") if kind == "Put" else body.get("Key")
    if not attributes or table.hash_key_attr not in attributes:
        return None  # malformed: moto rejects it before it writes anything
    hash_key = DynamoType(attributes[table.hash_key_attr])
    range_key = None
    if table.has_range_key:
        if table.range_key_attr not in attributes:
            return None
        range_key = DynamoType(attributes[table.range_key_attr])
    return table, hash_key, range_key


def _restore(table: Table, hash_key: DynamoType, range_key: DynamoType | None, original: Any) -> None:
    if range_key is None:
        if original is None:
            table.items.pop(hash_key, None)
        else:
            table.items[hash_key] = original
        return
    bucket = table.items[hash_key]
    if original is None:
        bucket.pop(range_key, None)
        if not bucket:
            table.items.pop(hash_key, None)
    else:
        bucket[range_key] = original


_original_transact_write_items = DynamoDBBackend.transact_write_items


def _transact_write_items(self: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> None:
    snapshot = []
    for operation in transact_items:
        if len(operation) != 1:
            continue  # moto raises TransactWriteSingleOpException before writing
        touched = _touched_key(self, operation)
        if touched is None:
            continue
        table, hash_key, range_key = touched
        current = table.get_item(hash_key, range_key)
        # Items are updated in place, so the snapshot must be a copy, not a reference.
        snapshot.append((table, hash_key, range_key, copy.deepcopy(current)))
    try:
        _original_transact_write_items(self, transact_items)
    except BaseException:
        for table, hash_key, range_key, original in reversed(snapshot):
            _restore(table, hash_key, range_key, original)
        raise


class _Serialised:
    """WSGI middleware: one request at a time reaches moto's backend."""

    def __init__(self, app: Any) -> None:
        self._app = app
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        with self._lock:
            # Drain the body inside the lock: moto builds responses lazily from live state.
            return list(self._app(environ, start_response))


def _exit_when_parent_goes() -> None:
    sys.stdin.read()
    os._exit(0)


def main() -> None:
    dynamodb_models.copy = _TableCopySkipper()
    DynamoDBBackend.transact_write_items = _transact_write_items
    logging.getLogger("werkzeug").setLevel(logging.ERROR)

    host = os.environ.get("REWARDS_DYNAMODB_HOST", "127.0.0.1")
    port = int(os.environ.get("REWARDS_DYNAMODB_PORT", "0"))
    os.environ.setdefault("MOTO_ALLOW_NONEXISTENT_REGION", "true")
    server = make_server(host, port, _Serialised(create_backend_app("dynamodb")), threaded=True)
    threading.Thread(target=_exit_when_parent_goes, daemon=True).start()
    sys.stdout.write(json.dumps({"port": server.server_port, "moto": moto_version}) + "\n")
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
