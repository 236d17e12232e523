"""The trifecta tools: advisory pages from a loopback server, the outbox and SMTP, the mbox inbox."""

from __future__ import annotations

import mailbox
import socket
import socketserver
import sqlite3
import threading
from email.message import EmailMessage
from pathlib import Path

import pytest

from dialstack.domains.travel import external
from dialstack.domains.travel.errors import AdvisoryUnavailable, DeliveryFailed, UnknownBooking
from dialstack.tools.context import ToolContext

from ..conftest import INJECTION

def test_advisory_returns_level_and_plain_text_summary(ctx: ToolContext, advisory_server: str) -> None:
    result = external.fetch_travel_advisory(destination="Paris", ctx=ctx)
    assert result["level"] == 2
    assert "strikes" in result["summary"] and "<p>" not in result["summary"] and "var x" not in result["summary"]
    assert result["source_url"] == f"{advisory_server}/paris"
    assert result["untrusted"] is True and result["warnings"] == []


def test_advisory_with_an_injection_is_returned_as_flagged_data(ctx: ToolContext, advisory_server: str) -> None:
    result = external.fetch_travel_advisory(destination="Rome", ctx=ctx)
    assert result["level"] == 1
    assert "ignore previous instructions" in result["summary"].lower()
    assert result["warnings"] and "not followed" in result["warnings"][0]
    with sqlite3.connect(ctx.data_dir / "travel.db") as conn:  # type: ignore[operator]
        assert conn.execute("SELECT COUNT(*) FROM outbox").fetchone()[0] == 0


def test_advisory_for_a_city_without_a_page_says_none_is_available(ctx: ToolContext, advisory_server: str) -> None:
    with pytest.raises(AdvisoryUnavailable, match="no travel advisory for Tokyo"):
        external.fetch_travel_advisory(destination="Tokyo", ctx=ctx)


def test_advisory_without_a_configured_source_explains_the_setting(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(external.ADVISORY_ENV, raising=False)
    with pytest.raises(AdvisoryUnavailable, match="DIALSTACK_ADVISORY_URL"):
        external.fetch_travel_advisory(destination="Paris", ctx=ctx)


def test_advisory_url_template_accepts_city_and_code_placeholders() -> None:
    assert external.advisory_url("http://x/{code}.html", "New York", "NYC") == "http://x/NYC.html"
    assert external.advisory_url("http://x/a/", "Portland, Oregon", "PDX") == "http://x/a/portland"


def test_send_itinerary_without_smtp_queues_it_in_the_outbox(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(external.SMTP_ENV, raising=False)
    result = external.send_itinerary(booking_ref="BK-12345", to="ana@example.com", ctx=ctx)
    assert result["status"] == "queued" and result["message_id"] == "MSG-00001"
    with sqlite3.connect(ctx.data_dir / "travel.db") as conn:  # type: ignore[operator]
        to, body, status = conn.execute("SELECT to_addr, body, status FROM outbox").fetchone()
    assert (to, status) == ("ana@example.com", "queued") and "BK-12345" in body


def test_send_itinerary_of_an_unknown_booking_fails(ctx: ToolContext) -> None:
    with pytest.raises(UnknownBooking):
        external.send_itinerary(booking_ref="BK-99999", to="ana@example.com", ctx=ctx)


class _SMTPHandler(socketserver.StreamRequestHandler):
    received: list[str] = []

    def handle(self) -> None:
        self.wfile.write(b"220 test ESMTP\r\n")
        data = False
        lines: list[str] = []
        for raw in self.rfile:
            line = raw.decode().rstrip("\r\n")
            if data:
                if line == ".":
                    data = False
                    _SMTPHandler.received.append("\n".join(lines))
                    self.wfile.write(b"250 queued\r\n")
                else:
                    lines.append(line)
                continue
            verb = line.split(" ", 1)[0].upper()
            if verb == "DATA":
                data = True
                self.wfile.write(b"354 go ahead\r\n")
            elif verb == "QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:
                self.wfile.write(b"250 ok\r\n")


def test_send_itinerary_delivers_through_a_configured_smtp_server(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _SMTPHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        monkeypatch.setenv(external.SMTP_ENV, f"smtp://127.0.0.1:{server.server_address[1]}")
        result = external.send_itinerary(booking_ref="BK-12345", to="ana@example.com", ctx=ctx)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    assert result["status"] == "sent"
    assert any("BK-12345" in message for message in _SMTPHandler.received)


def test_send_itinerary_keeps_the_message_when_smtp_is_unreachable(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    monkeypatch.setenv(external.SMTP_ENV, f"smtp://127.0.0.1:{port}")
    with pytest.raises(DeliveryFailed, match="kept in the outbox"):
        external.send_itinerary(booking_ref="BK-12345", to="ana@example.com", ctx=ctx)
    with sqlite3.connect(ctx.data_dir / "travel.db") as conn:  # type: ignore[operator]
        assert conn.execute("SELECT status FROM outbox").fetchone()[0] == "failed"


def _mail(subject: str, body: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = "bookings@airline.example"
    message["To"] = "ana@example.com"
    message["Subject"] = subject
    message["Date"] = "Thu, 20 Nov 2025 09:00:00 +0000"
    message.set_content(body)
    return message


def test_read_inbox_lists_booking_emails_only(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "inbox.mbox"
    box = mailbox.mbox(path)
    box.add(_mail("Your booking BK-12345 is confirmed", "New York to Los Angeles on Dec 15."))
    box.add(_mail("Weekly newsletter", "Deals of the week."))
    box.add(_mail("Itinerary update", f"Flight change for BK-20481. {INJECTION}"))
    box.flush()
    box.close()
    monkeypatch.setenv(external.INBOX_ENV, str(path))
    result = external.read_inbox(ctx=ctx)
    assert result["count"] == 2
    assert [m["booking_refs"] for m in result["messages"]] == [["BK-12345"], ["BK-20481"]]
    only = external.read_inbox(booking_ref="BK-20481", ctx=ctx)
    assert only["count"] == 1 and "Ignore previous instructions" in only["messages"][0]["snippet"]


def test_read_inbox_without_a_mailbox_is_empty(ctx: ToolContext, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(external.INBOX_ENV, raising=False)
    assert external.read_inbox(ctx=ctx)["count"] == 0
