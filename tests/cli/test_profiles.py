"""Profiles are laid over the global config: they override what they name, nothing else."""

from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundwork.cli import app
from schemas.config import ClaimChecks, RunConfig, profile_config

GLOBAL = RunConfig(
    top_k=25,
    claims=ClaimChecks(softening="hedge", numeric_tolerance=0.01, max_unsupported_rate=0.3),
)


def test_a_profile_overrides_only_the_settings_it_names() -> None:
    light = profile_config("light", GLOBAL)
    assert light.top_k == 25  # not in the profile: the global config's
    assert light.claims.numeric_tolerance == 0.01  # nested, not named: inherited too
    assert light.claims.max_unsupported_rate == 0.3
    assert (light.claims.decompose, light.claims.depth) == (False, "light")
    assert light.claims.softening == "mark_unverified"  # named: the profile's


def test_an_explicit_value_equal_to_the_default_still_overrides(tmp_path: Path) -> None:
    profile = tmp_path / "reset.yaml"
    default = ClaimChecks().max_unsupported_rate
    profile.write_text(f"claims:\n  max_unsupported_rate: {default}\n")
    config = profile_config(str(profile), GLOBAL)
    assert config.claims.max_unsupported_rate == default  # not the global 0.3
    assert config.claims.softening == "hedge"


@pytest.mark.parametrize("name", ["light", "standard", "strict"])
def test_the_shipped_profiles_are_valid_and_differ_in_what_they_check(name: str) -> None:
    claims = profile_config(name).claims
    assert claims != ClaimChecks() or name == "standard"
    if name == "strict":
        assert (claims.depth, claims.softening) == ("full", "remove")


def test_without_a_profile_the_global_config_is_used_as_is() -> None:
    assert profile_config(None, GLOBAL) == GLOBAL


def test_an_unknown_profile_is_a_usage_error(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    result = CliRunner().invoke(
        app, ["run", "-c", str(corpus), "-w", str(tmp_path / "wh"), "--profile", "nosuch"]
    )
    assert result.exit_code == 2
    assert "profile nosuch" in result.output
