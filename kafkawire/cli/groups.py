"""``kafkawire groups``: a cluster's consumer groups (``list``), and a group's members,
assignments, committed offsets and lag (``describe``), through the client (TLS and SASL from
``--command-config``, as Kafka's own tools take them)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from kafkawire.cli.common import PROG, add_connection_arguments, open_client
from kafkawire.client import Client


def add_arguments(parser) -> None:
    """The ``groups`` subcommand's options and its actions (``list``, ``describe``)."""
    add_connection_arguments(parser)
    json_help = "one JSON object a line"
    parser.add_argument("--json", action="store_true", help=json_help)
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    p = actions.add_parser(
        "list",
        help="every group of the cluster",
        description="Every group of the cluster (ListGroups to each broker), with its "
        "protocol type and state.",
    )
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help=json_help)
    p = actions.add_parser(
        "describe",
        help="a group's members, assignments, committed offsets and lag",
        description="Each group's state, assignor, coordinator and members with their "
        "assigned partitions; per partition the committed offset, the end offset (high "
        "watermark) and the lag, and the group's total lag.",
    )
    p.add_argument("groups", nargs="+", metavar="GROUP")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help=json_help)


def cmd_groups(args) -> int:
    client = open_client(args)
    with client:
        if args.action == "list":
            _list(client, args.json)
            return 0
        return _describe(client, args.groups, args.json)


# what the listing says of a group whose state ListGroups does not give: None (versions
# before 4, which have no GroupState), "Unknown" (Tansu 0.x)
_NO_STATE = (None, "", "Unknown")


def _list(client: Client, as_json: bool) -> None:
    listings = client.list_groups()
    # the state then comes from DescribeGroups, as `describe` shows it
    unknown = [g.group_id for g in listings if g.state in _NO_STATE]
    described = client.describe_groups(unknown) if unknown else {}
    rows = [
        {
            "group_id": g.group_id,
            "protocol_type": g.protocol_type,
            "state": described[g.group_id].state if g.group_id in described else g.state,
        }
        for g in listings
    ]
    if as_json:
        for row in rows:
            print(json.dumps(row))
        return
    print(
        _table(
            ["GROUP", "TYPE", "STATE"],
            [[r["group_id"], r["protocol_type"] or "-", r["state"] or "-"] for r in rows],
        )
    )


def describe_group(client: Client, group_id: str, description) -> dict[str, Any]:
    """The group as ``--json`` prints it: its description, and per partition (committed or
    assigned) the committed offset, end offset, lag and owning member."""
    lag = client.group_lag(group_id)
    owners = {tp: member.member_id for member in description.members for tp in member.assignment}
    uncommitted = sorted(set(owners) - set(lag))
    ends = client.latest_offsets(uncommitted) if uncommitted else {}
    partitions = []
    for tp in sorted(set(lag) | set(owners)):
        known = lag.get(tp)
        partitions.append(
            {
                "topic": tp.topic,
                "partition": tp.partition,
                "committed": None if known is None else known.committed,
                "end": ends[tp] if known is None else known.end,
                "lag": None if known is None else known.lag,
                "member_id": owners.get(tp),
            }
        )
    return {
        "group_id": group_id,
        "exists": group_exists(description, partitions),
        "state": description.state,
        "protocol_type": description.protocol_type,
        "protocol": description.protocol,
        "coordinator": description.coordinator,
        "members": [
            {
                "member_id": m.member_id,
                "group_instance_id": m.group_instance_id,
                "client_id": m.client_id,
                "client_host": m.client_host,
                "assignment": [{"topic": t, "partition": p} for t, p in sorted(m.assignment)],
            }
            for m in description.members
        ],
        "partitions": partitions,
        "total_lag": sum(p["lag"] for p in partitions if p["lag"] is not None),
    }


def group_exists(description, partitions: list[dict[str, Any]]) -> bool:
    """Whether the broker knows the group: Kafka says "Dead" of a group it does not have;
    Tansu 0.x says "Empty", which a group that only lacks members also is, so such a group
    exists if it has a protocol type or committed offsets."""
    if description.state == "Dead":
        return False
    return bool(
        description.state != "Empty"
        or description.protocol_type
        or description.members
        or any(p["committed"] is not None for p in partitions)
    )


def _describe(client: Client, group_ids: Sequence[str], as_json: bool) -> int:
    descriptions = client.describe_groups(group_ids)
    missing = []
    shown = 0
    for group_id in dict.fromkeys(group_ids):
        group = describe_group(client, group_id, descriptions[group_id])
        if not group["exists"]:
            missing.append(group_id)
        if as_json:
            print(json.dumps(group))
            continue
        if not group["exists"]:
            continue
        if shown:
            print()
        shown += 1
        print(
            f"group {group_id!r} state {group['state']} "
            f"protocol type {group['protocol_type'] or '-'} "
            f"assignor {group['protocol'] or '-'} coordinator {group['coordinator']}"
        )
        print(f"members: {len(group['members'])}")
        for m in group["members"]:
            print(
                f"  {m['member_id']} client_id={m['client_id']!r} host={m['client_host']!r}"
                + (f" instance={m['group_instance_id']!r}" if m["group_instance_id"] else "")
            )
            print(f"    assignment: {_assignment(m['assignment'])}")
        if group["partitions"]:
            print(
                _table(
                    ["TOPIC", "PARTITION", "COMMITTED", "END", "LAG", "MEMBER"],
                    [[p[k] for k in _COLUMNS] for p in group["partitions"]],
                )
            )
        else:
            print("no committed offsets and no assigned partitions")
        print(f"total lag {group['total_lag']}")
    for group_id in missing:
        sys.stderr.write(
            f"{PROG}: group {group_id!r} does not exist (no members, no committed offsets)\n"
        )
    return 1 if missing else 0


_COLUMNS = ["topic", "partition", "committed", "end", "lag", "member_id"]


def _assignment(tps: list[dict[str, Any]]) -> str:
    """``t1 [0, 1], t2 [3]`` (or ``-``)."""
    topics: dict[str, list[int]] = {}
    for tp in tps:
        topics.setdefault(tp["topic"], []).append(tp["partition"])
    return ", ".join(f"{t} {parts}" for t, parts in topics.items()) or "-"


def _table(header: list[str], rows: list[list[Any]]) -> str:
    """Left-aligned columns two spaces apart; None shows as ``-``."""
    cells = [header] + [["-" if c is None else str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join(
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    )
