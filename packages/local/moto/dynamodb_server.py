"""moto's DynamoDB server, made to answer like AWS where the rewards guarantee lives.

Started by packages/local (startDynamo.ts) as a child process. It prints one JSON line,
{"port": N}, once it listens, and exits when its standard input closes, so it can never
outlive the Node process that started it, however that process ends.

What is changed in moto 5.2.x (see the README, "The embedded local AWS"):

1. Concurrency. The server is threaded and the DynamoDB backend takes no lock: concurrent
   transactions fail with HTTP 500 and a rollback can erase a concurrent commit. Every
   request is serialised behind one lock; DynamoDB is serialisable per item, so this only
   costs speed.
2. TransactWriteItems is replaced by an implementation that behaves as AWS documents:
   - request-level problems (a key attribute missing or of the wrong type, a missing table,
     one item twice) are top-level errors, before anything is evaluated;
   - item-level failures are a TransactionCanceledException with one reason per item in
     request order (`None` where the item had no problem): `ConditionalCheckFailed` (with
     the item when ReturnValuesOnConditionCheckFailure is ALL_OLD) and `ValidationError`
     (e.g. ADD to an attribute that is not a number) — moto reports the latter as a
     top-level ValidationException;
   - a condition comparing values of different types is false (ConditionalCheckFailed), as
     on AWS; moto raises a TypeError, an HTTP 500;
   - rollback restores only the items the transaction touched (moto deep-copies every
     touched table first, so its latency grows with the table).
3. Streams. The table's stream (DynamoDB Streams: DescribeStream, GetShardIterator,
   GetRecords) is served on the same port, routed by X-Amz-Target. A cancelled transaction
   leaves no stream record: rollback truncates the stream back to where it was, as it
   restores the items (moto's rollback would keep the records of writes it undid). A
   shard iterator is forgotten once GetRecords has used it (moto keeps every one). An
   update that creates its item is one INSERT record, as on AWS (moto writes two: one for
   the key it puts first, one for the update).
4. Query reads one partition. moto's Query on a table (no index) walks and sorts every item
   of the table to find one partition's, so its latency grows with the table: in the demo
   a reader's history Query took half a second against a few thousand items. Here it
   reads the partition's own items, as DynamoDB does (the results and their order are
   moto's: only the items it walks change).
5. Scan and Query sort by the keys' values. moto sorts the whole table for every Scan page
   (and every Query before item 4) comparing DynamoType objects, which cast both sides on
   every comparison, then walks every item before the page's ExclusiveStartKey, hashing each
   for its segment. Here the sort key is the keys' Python values (the same order), and a table
   Scan (no index) starts at the item after its ExclusiveStartKey. With item 6, a scan of
   4,000 items in pages of 250 went from 13 s to under 4 s on a busy machine (10,000 items
   took 34 s before); results and their order are unchanged: only the work to find them.
6. Item responses are written as JSON directly. moto 5.2 writes every response through a
   serializer that walks botocore's model of the operation for every attribute value: about
   4 ms an item, so a Scan page of 250 items took a second. GetItem, BatchGetItem, Query,
   Scan, PutItem, UpdateItem and DeleteItem answer with the same document, dumped as JSON
   (anything JSON cannot carry goes through moto's serializer as before).
7. ClientRequestToken. moto ignores it. Here a successful transaction's token is kept for
   10 minutes: the same token with the same parameters answers success without writing
   again; with different parameters, IdempotentParameterMismatchException. Entries expire,
   and at most MAX_TOKENS are kept.

The patches check the moto version and fail at start rather than misbehave after an upgrade.
"""

from __future__ import annotations

import base64
import copy
import json
import logging
import os
import sys
import threading
import time
from bisect import bisect_right
from collections import OrderedDict
from typing import Any

SUPPORTED_MOTO = "5.2."


def _fail(message: str) -> None:
    sys.stderr.write(f"dynamodb_server: {message}\n")
    sys.stderr.flush()
    sys.exit(3)


try:
    from importlib.metadata import version

    moto_version = version("moto")
    from moto.core.responses import ActionResult
    from moto.dynamodb.comparisons import get_filter_expression
    from moto.dynamodb.exceptions import (
        ConditionalCheckFailed,
        DynamodbException,
        MockValidationException,
        MultipleTransactionsException,
        TooManyTransactionsException,
        TransactionCanceledException,
        TransactWriteSingleOpException,
    )
    from moto.dynamodb.models import DynamoDBBackend
    from moto.dynamodb.models.dynamo_type import DynamoType
    from moto.dynamodb.models.table import Table
    from moto.dynamodb.responses import DynamoHandler, DynamoResult
    from moto.dynamodbstreams.models import DynamoDBStreamsBackend
    from moto.moto_server.werkzeug_app import create_backend_app
    from werkzeug.serving import make_server
except ImportError as error:  # the Node side turns this exit code into an install hint
    _fail(f"moto[server] is not importable: {error}")

if not moto_version.startswith(SUPPORTED_MOTO):
    _fail(f"moto {moto_version} is installed; this launcher is written for {SUPPORTED_MOTO}x")
if not callable(getattr(DynamoDBStreamsBackend, "get_records", None)):
    _fail("moto's DynamoDBStreamsBackend has no get_records as patched here")
if not callable(getattr(Table, "query", None)) or not callable(getattr(Table, "all_items", None)):
    _fail("moto's Table has no query or all_items as patched here")
for name in ("transact_write_items", "get_item", "put_item", "update_item", "delete_item", "get_table"):
    if not callable(getattr(DynamoDBBackend, name, None)):
        _fail(f"moto's DynamoDBBackend has no {name} as patched here")

TOKEN_TTL_SECONDS = float(os.environ.get("REWARDS_DYNAMODB_TOKEN_TTL_SECONDS", "600"))
MAX_TOKENS = int(os.environ.get("REWARDS_DYNAMODB_MAX_TOKENS", "100000"))
OPERATIONS = ("ConditionCheck", "Put", "Delete", "Update")


class IdempotentParameterMismatch(DynamodbException):
    def __init__(self) -> None:
        super().__init__(
            "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException",
            "The request uses the same client token as a previous, but non-identical request.",
        )


def _key_value(table: Table, attributes: dict[str, Any], name: str, expected: str | None) -> DynamoType:
    value = attributes.get(name)
    if not isinstance(value, dict) or len(value) != 1:
        raise MockValidationException(f"One or more parameter values were invalid: Missing the key {name} in the item")
    (actual,) = value.keys()
    if actual != expected:
        raise MockValidationException(
            f"One or more parameter values were invalid: Type mismatch for key {name} expected: {expected} actual: {actual}"
        )
    return DynamoType(value)


def _plan(backend: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any], Table, dict[str, Any], DynamoType, DynamoType | None]]:
    """Request-level checks, as AWS makes them before evaluating any item."""
    if len(transact_items) > 100:
        raise TooManyTransactionsException()
    plan = []
    seen: set[tuple[str, str]] = set()
    for item in transact_items:
        if len(item) != 1:
            raise TransactWriteSingleOpException()
        ((kind, operation),) = item.items()
        if kind not in OPERATIONS:
            raise MockValidationException(f"Unsupported transaction operation {kind}")
        table = backend.get_table(operation["TableName"])  # ResourceNotFoundException if missing
        attributes = operation["Item"] if kind == "Put" else operation["Key"]
        hash_key = _key_value(table, attributes, table.hash_key_attr, table.hash_key_type)
        range_key = None
        key = {table.hash_key_attr: attributes[table.hash_key_attr]}
        if table.range_key_attr is not None:
            range_key = _key_value(table, attributes, table.range_key_attr, table.range_key_type)
            key[table.range_key_attr] = attributes[table.range_key_attr]
        identity = (table.name, json.dumps(key, sort_keys=True))
        if identity in seen:
            raise MultipleTransactionsException()
        seen.add(identity)
        plan.append((kind, operation, table, key, hash_key, range_key))
    return plan


def _restore(table: Table, hash_key: DynamoType, range_key: DynamoType | None, original: Any) -> None:
    if range_key is None:
        if original is None:
            table.items.pop(hash_key, None)
        else:
            table.items[hash_key] = original
        return
    bucket = table.items.setdefault(hash_key, {})
    if original is None:
        bucket.pop(range_key, None)
        if not bucket:
            table.items.pop(hash_key, None)
    else:
        bucket[range_key] = original


def _condition_holds(expression: Any, item: Any) -> bool:
    """AWS: a comparison of values of different types (`xp <= :n` where xp is a string) is
    false, so the condition fails. moto raises TypeError (an HTTP 500) instead."""
    try:
        return bool(expression.expr(item))
    except TypeError:
        return False


def _apply(backend: DynamoDBBackend, kind: str, operation: dict[str, Any], table: Table, key: dict[str, Any]) -> None:
    condition = operation.get("ConditionExpression")
    names = operation.get("ExpressionAttributeNames")
    values = operation.get("ExpressionAttributeValues")
    current = backend.get_item(table.name, key)
    if condition is not None and not _condition_holds(get_filter_expression(condition, names, values), current):
        item = None
        if operation.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD" and current:
            item = current.to_json()["Attributes"]
        raise ConditionalCheckFailed(item=item)
    if kind == "Put":
        backend.put_item(table.name, operation["Item"], expression_attribute_names=names, expression_attribute_values=values)
    elif kind == "Delete":
        backend.delete_item(table.name, key, expression_attribute_names=names, expression_attribute_values=values)
    elif kind == "Update":
        backend.update_item(
            table.name,
            key,
            update_expression=operation["UpdateExpression"],
            expression_attribute_names=names,
            expression_attribute_values=values,
        )


def _transact_write_items(self: DynamoDBBackend, transact_items: list[dict[str, Any]]) -> None:
    plan = _plan(self, transact_items)
    # Items are updated in place, so the snapshot must hold copies, not references.
    snapshot = [
        (table, hash_key, range_key, copy.deepcopy(table.get_item(hash_key, range_key)))
        for _, _, table, _, hash_key, range_key in plan
    ]
    stream_marks = {
        table.name: (table.stream_shard, len(table.stream_shard.items))
        for _, _, table, _, _, _ in plan
        if table.stream_shard is not None
    }
    reasons: list[tuple[Any, Any, Any]] = []
    for kind, operation, table, key, _, _ in plan:
        try:
            _apply(self, kind, operation, table, key)
            reasons.append((None, None, None))
        except ConditionalCheckFailed as failure:
            item = json.loads(failure.description).get("Item") if getattr(failure, "description", None) else None
            reasons.append(("ConditionalCheckFailed", "The conditional request failed", item))
        except MockValidationException as invalid:
            reasons.append(("ValidationError", invalid.exception_msg, None))
    if any(code is not None for code, _, _ in reasons):
        for table, hash_key, range_key, original in reversed(snapshot):
            _restore(table, hash_key, range_key, original)
        # What was never committed never happened: no stream record of it either.
        for shard, length in stream_marks.values():
            del shard.items[length:]
        raise TransactionCanceledException(reasons)


_tokens: OrderedDict[str, tuple[float, str]] = OrderedDict()
_transact_write_items_response = DynamoHandler.transact_write_items


def _transact_write_items_with_token(self: DynamoHandler) -> ActionResult:
    token = self.body.get("ClientRequestToken")
    if token is None:
        return _transact_write_items_response(self)
    now = time.monotonic()
    while _tokens and next(iter(_tokens.values()))[0] <= now:
        _tokens.popitem(last=False)
    parameters = json.dumps({k: v for k, v in self.body.items() if k != "ClientRequestToken"}, sort_keys=True)
    seen = _tokens.get(token)
    if seen is not None:
        if seen[1] != parameters:
            raise IdempotentParameterMismatch()
        return ActionResult({"ConsumedCapacity": [], "ItemCollectionMetrics": {}})
    result = _transact_write_items_response(self)
    # Only a success is remembered: AWS processes a retry of a failed request anew.
    _tokens[token] = (now + TOKEN_TTL_SECONDS, parameters)
    while len(_tokens) > MAX_TOKENS:
        _tokens.popitem(last=False)
    return result


_update_item = DynamoDBBackend.update_item


def _update_item_one_record(self: DynamoDBBackend, table_name: str, key: dict[str, Any], **kwargs: Any) -> Any:
    shard = self.get_table(table_name).stream_shard
    mark = len(shard.items) if shard is not None else 0
    result = _update_item(self, table_name, key, **kwargs)
    if shard is not None and len(shard.items) - mark > 1:
        last = shard.items[-1]
        del shard.items[mark:]
        # Sequence numbers are positions in the shard: the kept record takes the first's.
        last.record["dynamodb"]["SequenceNumber"] = str(shard.starting_sequence_number + mark)
        shard.items.append(last)
    return result


_get_records = DynamoDBStreamsBackend.get_records


def _get_records_once(self: DynamoDBStreamsBackend, iterator_arn: str, limit: int) -> dict[str, Any]:
    result = _get_records(self, iterator_arn, limit)
    self.shard_iterators.pop(iterator_arn, None)
    return result


class _ByTarget:
    """WSGI: DynamoDB Streams requests (X-Amz-Target DynamoDBStreams_*) to its backend, the rest to DynamoDB's."""

    def __init__(self, dynamodb: Any, streams: Any) -> None:
        self._dynamodb = dynamodb
        self._streams = streams

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        app = self._streams if target.startswith("DynamoDBStreams_") else self._dynamodb
        return app(environ, start_response)


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


_query = Table.query
_scan = Table.scan
# The partition a table Query is reading (every request holds the server's one lock).
_reading: tuple[Any, Any] | None = None
# The table a Scan is reading, and the key its page starts after.
_resuming: tuple[Any, Any] | None = None


def _item_order(item: Any) -> Any:
    # The keys' Python values: DynamoType's own comparisons cast both sides on every one, and
    # sorting the table by them took most of a page's time.
    return (item.hash_key.cast_value, item.range_key.cast_value) if item.range_key else item.hash_key.cast_value


def _item_order_of_key(key: tuple[Any, Any]) -> Any:
    hash_key, range_key = key
    return (hash_key.cast_value, range_key.cast_value) if range_key is not None else hash_key.cast_value


def _table_items(self: Table) -> list[Any]:
    """moto's all_items, sorted in the same order on the keys' values."""
    if not self.range_key_attr:
        return sorted(self.items.values(), key=_item_order)
    return sorted((item for hash_set in self.items.values() for item in hash_set.values()), key=_item_order)


def _partition_items(self: Table) -> Any:
    if _resuming is not None and _resuming[0] is self:
        items = _table_items(self)
        return items[bisect_right(items, _item_order_of_key(_resuming[1]), key=_item_order) :]
    if _reading is None or _reading[0] is not self:
        return _table_items(self)
    found = self.items.get(_reading[1])
    if found is None:
        return []
    items = list(found.values()) if self.range_key_attr else [found]
    return sorted(items, key=lambda x: (x.hash_key, x.range_key) if x.range_key else x.hash_key)


def _query_one_partition(self: Table, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
    global _reading
    index_name = args[6] if len(args) > 6 else kwargs.get("index_name")
    if index_name is not None or hash_key is None:
        return _query(self, hash_key, *args, **kwargs)
    _reading = (self, hash_key)
    try:
        return _query(self, hash_key, *args, **kwargs)
    finally:
        _reading = None


def _scan_from_start_key(self: Table, filters: Any, limit: Any, exclusive_start_key: Any, *args: Any, **kwargs: Any) -> Any:
    global _resuming
    index_name = args[1] if len(args) > 1 else kwargs.get("index_name")
    if index_name is not None or not exclusive_start_key:
        return _scan(self, filters, limit, exclusive_start_key, *args, **kwargs)
    hash_key = DynamoType(exclusive_start_key[self.hash_key_attr])
    range_key = DynamoType(exclusive_start_key[self.range_key_attr]) if self.range_key_attr else None
    _resuming = (self, (hash_key, range_key))
    try:
        return _scan(self, filters, limit, exclusive_start_key, *args, **kwargs)
    finally:
        _resuming = None


# Operations whose answers are items and counts: plain JSON, the same document the serializer writes.
_ITEM_ANSWERS = {"GetItem", "BatchGetItem", "Query", "Scan", "PutItem", "UpdateItem", "DeleteItem"}
_execute_result = DynamoResult.execute_result


def _binary_as_base64(value: Any) -> str:
    # What the JSON protocol does with a blob (a B attribute); anything else goes to moto's serializer.
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"not JSON: {type(value).__name__}")


def _execute_result_as_json(self: DynamoResult, context: Any) -> Any:
    if context.operation_model.name not in _ITEM_ANSWERS:
        return _execute_result(self, context)
    try:
        body = json.dumps(self.result, separators=(",", ":"), default=_binary_as_base64)
    except (TypeError, ValueError):
        return _execute_result(self, context)
    return 200, {"Content-Type": "application/x-amz-json-1.0"}, body


def apply_patches() -> None:
    """Items 2-7 of the module's docstring, on moto's classes (item 1 is the server's)."""
    DynamoResult.execute_result = _execute_result_as_json
    Table.all_items = _partition_items
    Table.query = _query_one_partition
    Table.scan = _scan_from_start_key
    DynamoDBBackend.transact_write_items = _transact_write_items
    DynamoHandler.transact_write_items = _transact_write_items_with_token
    DynamoDBStreamsBackend.get_records = _get_records_once
    DynamoDBBackend.update_item = _update_item_one_record


def main() -> None:
    apply_patches()
    logging.getLogger("werkzeug").setLevel(logging.ERROR)

    host = os.environ.get("REWARDS_DYNAMODB_HOST", "127.0.0.1")
    port = int(os.environ.get("REWARDS_DYNAMODB_PORT", "0"))
    os.environ.setdefault("MOTO_ALLOW_NONEXISTENT_REGION", "true")
    app = _ByTarget(create_backend_app("dynamodb"), create_backend_app("dynamodbstreams"))
    server = make_server(host, port, _Serialised(app), threaded=True)
    threading.Thread(target=_exit_when_parent_goes, daemon=True).start()
    sys.stdout.write(json.dumps({"port": server.server_port, "moto": moto_version}) + "\n")
    sys.stdout.flush()
    server.serve_forever()


if __name__ == "__main__":
    main()
