"""schemathesis against the OpenAPI schema, served by a live test server: generated requests
to every operation, none may fail with a server error and every answer must be what the
schema says (status code, content type, body)."""

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.models import ApiToken
from contests.tests.factories import make_contest, make_entry, make_match, make_stage, make_submission, make_user

pytestmark = [pytest.mark.slow, pytest.mark.postgres]  # the same API on either engine: CI checks it on the stricter
EXAMPLES = 100  # generated requests per operation and credential (x2 credentials): bounded in count, so in time


@pytest.fixture
def api_schema(live_server, transactional_db):
    contest = make_contest(slug="chomp")
    stage = make_stage(contest, kind="round_robin")
    subs = [make_submission(make_entry(contest), is_active=True, status="ready") for _ in range(2)]
    match = make_match(contest, subs, stage=stage, status="finished")
    match.save_replay({"game": "chomp", "moves": [], "frames": [{}], "result": {"reason": "test"}})
    return schemathesis.openapi.from_url(f"{live_server.url}/api/schema/").exclude(path="/api/events/")


@pytest.fixture
def token(transactional_db):
    _, key = ApiToken.issue(make_user(), "schemathesis")
    return key


def test_every_operation_answers_as_its_schema_says(api_schema, token, live_server):
    checks = [status_code_conformance, content_type_conformance, response_schema_conformance]
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 15
    for operation in operations:

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
            database=None,
        )
        @given(case=operation.as_strategy())
        def check(case):
            for headers in ({}, {"Authorization": f"Bearer {token}"}):
                case.call_and_validate(base_url=live_server.url, headers=headers, checks=checks)

        check()
