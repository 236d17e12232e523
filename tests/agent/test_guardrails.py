"""Code guardrails: cleaning and validating generated Python and SQL."""

from __future__ import annotations

import pytest

from dialstack.agent.guardrails import GuardrailError, GuardrailPolicy, activate_guardrails, apply_guardrails, strip_fences

SCHEMA = {"flights": ["flight_id", "origin", "destination", "fare"], "bookings": ["booking_ref", "flight_id", "passengers"]}


# fences and extraction ------------------------------------------------------------------


def test_strip_fences_returns_the_inside_of_the_first_fence() -> None:
    assert strip_fences("Here:\n```python\nx = 1\n```\nbye") == "x = 1"


def test_strip_fences_leaves_unfenced_code_alone() -> None:
    assert strip_fences("  SELECT 1  ") == "SELECT 1"


def test_activate_guardrails_extracts_the_block_after_the_trigger_phrase() -> None:
    raw = "Sure! First some prose.\n```python\nprint(1)\n```\nThe query:\n```sql\nSELECT 1\n```\nDone."
    assert activate_guardrails(raw, "The query:") == "SELECT 1"


def test_activate_guardrails_uses_a_fence_opening_as_the_trigger() -> None:
    assert activate_guardrails("Explanation.\n```sql\nSELECT fare\nFROM flights\n```\nMore prose.", "```sql") == "SELECT fare\nFROM flights"


def test_activate_guardrails_takes_unfenced_code_up_to_the_end() -> None:
    assert activate_guardrails("Here it is. SQL: select 2", "sql:") == "select 2"


def test_activate_guardrails_without_trigger_falls_back_to_the_first_fence() -> None:
    assert activate_guardrails("text\n```\ndef f():\n    return 1\n```", "Code:") == "def f():\n    return 1"


def test_activate_guardrails_returns_none_when_there_is_no_code() -> None:
    assert activate_guardrails("Just prose, no code at all.", "```sql") is None
    assert activate_guardrails("Query:   ", "Query:") is None


# Python ---------------------------------------------------------------------------------


def test_python_guardrail_strips_fences_comments_and_disallowed_unused_imports() -> None:
    raw = "```python\nimport os, json  # tools\nfrom subprocess import run\n\ndef total(row):\n    # add it up\n    return row['fare'] * 2  # doubled\n```"
    guarded = apply_guardrails(raw, "python", ["fare"])
    assert guarded.code == "import json\n\ndef total(row):\n    return row['fare'] * 2"
    assert guarded.removed_imports == ("os", "subprocess") and guarded.entities == frozenset({"fare"})


def test_python_guardrail_keeps_a_block_valid_when_its_only_statement_was_a_stripped_import() -> None:
    guarded = apply_guardrails("def f():\n    import shutil\n", "python", None)
    assert guarded.code == "def f():\n    pass"


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("import os\nos.system('rm -rf /')", "uses 'os'"),
        ("from subprocess import run as r\nr(['ls'])", "uses 'r'"),
        ("__import__('os').system('x')", "calls __import__()"),
        ("eval('1+1')", "calls eval()"),
        ("open('/etc/passwd').read()", "calls open()"),
        ("().__class__.__bases__[0].__subclasses__()", "accesses"),
        ("import importlib.util\nimportlib.util.find_spec('x')", "uses 'importlib'"),
    ],
)
def test_python_guardrail_rejects_dangerous_code(code: str, reason: str) -> None:
    with pytest.raises(GuardrailError, match=reason):
        apply_guardrails(code, "python", None)


def test_python_that_does_not_parse_is_rejected_with_the_line() -> None:
    with pytest.raises(GuardrailError, match=r"does not parse: .*line 2"):
        apply_guardrails("x = 1\ndef f(:\n  return", "python", None)


def test_single_function_policy_requires_exactly_one_function() -> None:
    policy = GuardrailPolicy(single_function=True)
    assert apply_guardrails('"""doc"""\nimport math\ndef f(x):\n    return math.sqrt(x)', "python", None, policy=policy).code.endswith("math.sqrt(x)")
    with pytest.raises(GuardrailError, match="exactly one function definition, found 2"):
        apply_guardrails("def f(): pass\ndef g(): pass", "python", None, policy=policy)
    with pytest.raises(GuardrailError, match="found Expr on line 3"):
        apply_guardrails("def f():\n    pass\nprint(f())", "python", None, policy=policy)


def test_python_subscripts_must_name_known_entities() -> None:
    with pytest.raises(GuardrailError, match=r"unknown entities \['price'\]"):
        apply_guardrails("def f(row):\n    return row['price']", "python", SCHEMA)


# SQL ------------------------------------------------------------------------------------


def test_sql_guardrail_strips_comments_and_normalizes_a_select() -> None:
    guarded = apply_guardrails("```sql\nselect f.fare -- cheapest\nfrom flights f /* all */ where f.origin = 'LIS';\n```", "sql", SCHEMA)
    assert guarded.code == "SELECT f.fare FROM flights AS f WHERE f.origin = 'LIS'"
    assert guarded.entities == frozenset({"flights", "fare", "origin"})


def test_sql_joins_resolve_table_aliases_for_column_checks() -> None:
    sql = "SELECT b.booking_ref, f.fare AS price FROM bookings b JOIN flights f ON f.flight_id = b.flight_id ORDER BY price"
    assert apply_guardrails(sql, "sql", SCHEMA).code.startswith("SELECT b.booking_ref")


def test_sql_ctes_are_not_mistaken_for_unknown_tables() -> None:
    sql = "WITH cheap AS (SELECT flight_id FROM flights WHERE fare < 100) SELECT cheap.flight_id FROM cheap"
    assert apply_guardrails(sql, "sql", SCHEMA).code.startswith("WITH cheap AS")


@pytest.mark.parametrize(
    ("sql", "reason"),
    [
        ("SELECT 1; SELECT 2", "expected one statement, found 2"),
        ("SELECT * FROM flights; DROP TABLE flights", "expected one statement, found 2"),
        ("DELETE FROM bookings", "only a read-only SELECT is allowed, found DELETE"),
        ("UPDATE flights SET fare = 0", "found UPDATE"),
        ("DROP TABLE flights", "found DROP"),
        ("WITH d AS (DELETE FROM bookings RETURNING *) SELECT * FROM d", "found DELETE"),
        ("SELECT * FROM", "does not parse"),
        ("SELECT fare FROM hotels", r"unknown table\(s\) \['hotels'\]"),
        ("SELECT price FROM flights", "unknown column 'price'"),
        ("SELECT f.passengers FROM flights f", "unknown column 'passengers' in table 'flights'"),
        ("fare", "not a SQL statement"),
    ],
)
def test_sql_guardrail_rejects(sql: str, reason: str) -> None:
    with pytest.raises(GuardrailError, match=reason):
        apply_guardrails(sql, "sql", SCHEMA)


def test_sql_writes_pass_when_read_only_is_not_required() -> None:
    policy = GuardrailPolicy(read_only_sql=False)
    assert apply_guardrails("insert into bookings (booking_ref) values ('BK-1')", "sql", SCHEMA, policy=policy).code.startswith("INSERT INTO")


def test_sql_entities_may_be_a_flat_list_of_names() -> None:
    assert apply_guardrails("SELECT fare FROM flights", "sql", ["flights", "fare"]).code == "SELECT fare FROM flights"
    with pytest.raises(GuardrailError, match=r"unknown entities \['origin'\]"):
        apply_guardrails("SELECT origin FROM flights", "sql", ["flights", "fare"])


def test_sql_without_entities_skips_the_reference_check() -> None:
    assert apply_guardrails("SELECT anything FROM anywhere", "sql", None).code == "SELECT anything FROM anywhere"


# general --------------------------------------------------------------------------------


def test_empty_code_and_unknown_languages_are_rejected() -> None:
    with pytest.raises(GuardrailError, match="empty"):
        apply_guardrails("```sql\n```", "sql", None)
    with pytest.raises(GuardrailError, match="unsupported language"):
        apply_guardrails("puts 1", "ruby", None)


def test_guardrail_policy_from_context_rejects_unknown_settings() -> None:
    assert GuardrailPolicy.from_context({"single_function": True}).single_function is True
    with pytest.raises(GuardrailError, match="unknown guardrail settings"):
        GuardrailPolicy.from_context({"readonly": False})
