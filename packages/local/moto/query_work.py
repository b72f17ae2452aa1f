"""How many items moto walks to answer a Query and a resumed Scan page, with the launcher's
patches (items 4 and 5 of dynamodb_server.py) and without.

Run by packages/local/test/motoLauncher.test.ts: the count is the work, whatever the machine's
load, so a moto upgrade that stops calling what the patches replace fails there, not as a slow
demo. Prints one JSON line.
"""

from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("AWS_ACCESS_KEY_ID", "local")
os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "local")

import boto3  # noqa: E402
from moto import mock_aws  # noqa: E402
from moto.dynamodb.models.table import Table  # noqa: E402

import dynamodb_server  # noqa: E402

OTHERS = 2000
PARTITION = 3
walked = 0


def measure() -> dict[str, int]:
    global walked
    all_items = Table.all_items

    def counting(self: Table) -> object:
        global walked
        items = list(all_items(self))
        walked += len(items)
        return items

    Table.all_items = counting
    try:
        with mock_aws():
            client = boto3.client("dynamodb", region_name="us-east-1")
            client.create_table(
                TableName="work",
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
                AttributeDefinitions=[
                    {"AttributeName": "pk", "AttributeType": "S"},
                    {"AttributeName": "sk", "AttributeType": "S"},
                ],
                BillingMode="PAY_PER_REQUEST",
            )
            for i in range(OTHERS):
                client.put_item(TableName="work", Item={"pk": {"S": f"other-{i:05}"}, "sk": {"S": "S"}})
            for i in range(PARTITION):
                client.put_item(TableName="work", Item={"pk": {"S": "reader"}, "sk": {"S": f"AWARD#{i}"}})
            walked = 0
            found = client.query(
                TableName="work",
                KeyConditionExpression="pk = :pk",
                ExpressionAttributeValues={":pk": {"S": "reader"}},
            )["Count"]
            query_walked = walked
            # A page resumed after the partition's last item: all but the items before it are left.
            walked = 0
            page = client.scan(
                TableName="work",
                Limit=10,
                ExclusiveStartKey={"pk": {"S": "other-01989"}, "sk": {"S": "S"}},
            )["Count"]
            return {"found": found, "queryWalked": query_walked, "scanned": page, "scanWalked": walked}
    finally:
        Table.all_items = all_items


def main() -> None:
    unpatched = measure()
    dynamodb_server.apply_patches()
    patched = measure()
    sys.stdout.write(json.dumps({"others": OTHERS, "unpatched": unpatched, "patched": patched}) + "\n")


if __name__ == "__main__":
    main()
