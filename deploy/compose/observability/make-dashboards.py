"""Writes deploy/kubernetes/components/monitoring/dashboards/<service>.json, which compose's Grafana
provisions and the Kubernetes overlays ship as a ConfigMap: a dashboard per service with its request rate, errors and
latency by route (the metrics every service serves at /metrics), and the panels particular to it.
Run it again after changing the panels: python3 deploy/compose/observability/make-dashboards.py
"""
import json
import pathlib

SERVICES = ["gateway", "auth", "catalog", "games", "search", "betting", "chat", "notify", "purchases", "moderation", "media"]
# The services that publish events (Wiring.eventConsumers), and those that hold live sockets.
PUBLISHERS = ["auth", "catalog", "games", "purchases", "moderation", "betting"]
SOCKETS = ["gateway", "games", "chat"]
# Panels only some services have: (title, PromQL, unit, legend).
EXTRA = {
    "moderation": [
        ("Oldest open case", 'moderation_oldest_open_case_age_seconds{service="moderation"}', "s", "oldest"),
        ("Overdue cases", 'moderation_overdue_cases{service="moderation"}', "short", "overdue"),
    ],
    "auth": [
        ("Oldest mail waiting", 'huddle_mail_queue_age_seconds{service="auth"}', "s", "oldest"),
    ],
    "notify": [
        ("Oldest push waiting", 'notify_push_queue_age_seconds{service="notify"}', "s", "oldest"),
        ("Pushes by platform and result", 'sum by (platform, result) (rate(notify_pushes_total{service="notify"}[5m]))', "ops",
         "{{platform}} {{result}}"),
    ],
    "betting": [
        ("Tickets placed", 'sum(rate(betting_tickets_placed_total{service="betting"}[5m]))', "ops", "tickets"),
        ("Stakes (minor units a second)", 'sum(rate(betting_stakes_total{service="betting"}[5m]))', "short", "stakes"),
    ],
}
for publisher in PUBLISHERS:
    EXTRA.setdefault(publisher, []).append(
        ("Outbox lag by subscriber", f'max by (subscriber) (outbox_lag_seconds{{service="{publisher}"}})', "s", "{{subscriber}}"))
for holder in SOCKETS:
    EXTRA.setdefault(holder, []).append(("Live sockets", f'sum(live_sockets{{service="{holder}"}})', "short", "open"))


def panel(index, title, expr, unit, legend):
    return {
        "id": index + 1, "type": "timeseries", "title": title, "datasource": {"type": "prometheus", "uid": "prometheus"},
        "gridPos": {"h": 8, "w": 12, "x": (index % 2) * 12, "y": (index // 2) * 8},
        "fieldConfig": {"defaults": {"unit": unit}, "overrides": []},
        "targets": [{"refId": "A", "expr": expr, "legendFormat": legend}],
    }


def dashboard(service):
    selector = f'service="{service}"'
    panels = [
        ("Requests by route", f"sum by (http_route) (rate(hb_requests{{{selector}}}[5m]))", "reqps", "{{http_route}}"),
        ("Errors by route", f"sum by (http_route, error_type) (rate(hb_request_errors{{{selector}}}[5m]))", "reqps",
         "{{http_route}} {{error_type}}"),
        ("p99 latency by route",
         f"histogram_quantile(0.99, sum by (le, http_route) (rate(http_server_request_duration_bucket{{{selector}}}[5m])))", "s",
         "{{http_route}}"),
        ("Requests in flight", f"sum(http_server_active_requests{{{selector}}})", "short", "in flight"),
    ] + EXTRA.get(service, [])
    return {
        "uid": f"huddle-{service}", "title": f"Huddle · {service}", "schemaVersion": 39, "version": 1, "editable": True,
        "time": {"from": "now-1h", "to": "now"}, "refresh": "30s", "tags": ["huddle"],
        "panels": [panel(i, *p) for i, p in enumerate(panels)],
    }


here = pathlib.Path(__file__).parents[2] / "kubernetes" / "components" / "monitoring" / "dashboards"
here.mkdir(parents=True, exist_ok=True)
for service in SERVICES:
    (here / f"{service}.json").write_text(json.dumps(dashboard(service), indent=2) + "\n")
