"""Slot types: check() accepts and normalizes or rejects with a reason; extract() finds values."""

from __future__ import annotations

import pytest

from dialstack.domain.models import Ontology, SlotSpec, SlotTypeSpec
from dialstack.state import (
    UNIVERSAL_SLOTS,
    BaseSlot,
    CategorySlot,
    ChecklistSlot,
    DictionarySlot,
    ExactSlot,
    FreeTextSlot,
    GroupSlot,
    LevelSlot,
    RangeSlot,
    RemovalSlot,
    SlotContext,
    SlotRegistry,
    SlotTypeError,
    SourceSlot,
    TargetSlot,
)

BOOKING_REF = {"pattern": r"BK-\d{5}", "normalize": "upper"}
EMAIL = {"pattern": r"[^@\s]+@[^@\s]+\.[A-Za-z]{2,}", "normalize": "lower"}
SEATS = {"options": ["window", "aisle", "middle"]}
YES_NO = {"options": ["yes", "no"]}


def values(slot: BaseSlot, text: str, ctx: SlotContext) -> list[object]:
    return [c.value for c in slot.extract(text, ctx)]


def test_there_are_thirteen_universal_types() -> None:
    assert len(UNIVERSAL_SLOTS) == 13
    from dialstack.domain.models import UNIVERSAL_SLOT_TYPES

    assert set(UNIVERSAL_SLOTS) == set(UNIVERSAL_SLOT_TYPES)


# -- fill -------------------------------------------------------------------------


def test_fill_sets_value_only_when_check_passes(ctx: SlotContext) -> None:
    slot = ExactSlot("booking_ref", BOOKING_REF)
    assert slot.fill("bk-12345", ctx).ok
    assert slot.value == "BK-12345"
    rejected = slot.fill("BK-12", ctx)
    assert not rejected.ok
    assert slot.value == "BK-12345" and slot.display == "BK-12345"


def test_rejected_first_value_leaves_slot_unfilled(ctx: SlotContext) -> None:
    slot = LevelSlot("passengers", {"min": 1, "max": 9})
    assert not slot.fill(12, ctx).ok
    assert not slot.filled and slot.value is None


def test_clear_empties_the_slot(ctx: SlotContext) -> None:
    slot = BaseSlot("note")
    slot.fill("hello", ctx)
    slot.clear()
    assert not slot.filled and slot.display == ""


# -- BaseSlot ---------------------------------------------------------------------


def test_base_slot_accepts_scalars_and_rejects_lists(ctx: SlotContext) -> None:
    slot = BaseSlot("note")
    assert slot.check("  hi ", ctx).value == "hi"
    assert slot.check(3, ctx).ok
    assert "single value" in slot.check(["a"], ctx).reason
    assert "can't be empty" in slot.check("   ", ctx).reason
    assert slot.extract("anything", ctx) == []


# -- ExactSlot --------------------------------------------------------------------


def test_exact_slot_rejection_shows_an_example_derived_from_the_pattern(ctx: SlotContext) -> None:
    reason = ExactSlot("booking_ref", BOOKING_REF).check("BK-12", ctx).reason
    assert reason == "'BK-12' doesn't look like a booking reference (expected something like BK-12345)."


def test_exact_slot_without_sensible_example_still_names_the_slot(ctx: SlotContext) -> None:
    reason = ExactSlot("email", EMAIL).check("ana", ctx).reason
    assert reason == "'ana' doesn't look like an email."


def test_exact_slot_explicit_example_wins(ctx: SlotContext) -> None:
    slot = ExactSlot("email", {**EMAIL, "example": "ana@example.com"})
    assert "ana@example.com" in slot.check("nope", ctx).reason


def test_exact_slot_normalizes_case(ctx: SlotContext) -> None:
    assert ExactSlot("email", EMAIL).check("Ana@Example.COM", ctx).value == "ana@example.com"


def test_exact_slot_extracts_pattern_matches_case_insensitively(ctx: SlotContext) -> None:
    slot = ExactSlot("booking_ref", BOOKING_REF)
    found = slot.extract("Look up booking bk-12345 please", ctx)
    assert [c.value for c in found] == ["BK-12345"]
    assert (found[0].start, found[0].end) == (16, 24)


def test_exact_slot_extracts_email_without_trailing_period(ctx: SlotContext) -> None:
    assert values(ExactSlot("email", EMAIL), "My email is Ana@Example.com.", ctx) == ["ana@example.com"]


def test_exact_slot_does_not_match_inside_longer_tokens(ctx: SlotContext) -> None:
    assert values(ExactSlot("booking_ref", BOOKING_REF), "BK-123456", ctx) == []


# -- CategorySlot -----------------------------------------------------------------


def test_category_slot_matches_options_case_insensitively(ctx: SlotContext) -> None:
    assert CategorySlot("seat", SEATS).check("Aisle", ctx).value == "aisle"


def test_category_slot_rejection_lists_the_options(ctx: SlotContext) -> None:
    reason = CategorySlot("seat", SEATS).check("purple", ctx).reason
    assert reason == "'purple' isn't one of the seat options: window, aisle or middle."


def test_category_slot_extracts_whole_words_only(ctx: SlotContext) -> None:
    slot = CategorySlot("seat", SEATS)
    assert values(slot, "an AISLE seat please", ctx) == ["aisle"]
    assert values(slot, "windowsill", ctx) == []


def test_a_hyphenated_option_is_named_with_a_space_a_hyphen_or_neither(ctx: SlotContext) -> None:
    slot = CategorySlot("service", {"options": ["consultation", "follow-up"]})
    assert values(slot, "need a follow up next week", ctx) == ["follow-up"]
    assert values(slot, "a Followup please", ctx) == ["follow-up"]
    assert slot.check("follow up", ctx).value == "follow-up"
    assert values(slot, "follow the signs up", ctx) == []


def test_a_long_option_misspelt_by_a_letter_is_read_but_a_different_word_is_not(ctx: SlotContext) -> None:
    slot = CategorySlot("service", {"options": ["consultation", "follow-up", "dermatology"]})
    assert slot.check("consultaton", ctx).value == "consultation"
    assert values(slot, "a dermatolgy appointment", ctx) == ["dermatology"]
    assert values(slot, "a consolation prize", ctx) == []
    assert not CategorySlot("seat", SEATS).check("aisel", ctx).ok  # short names are matched as written


def test_two_words_misspelt_may_name_one_option(ctx: SlotContext) -> None:
    slot = CategorySlot("treatment", {"options": ["assessment", "follow-up", "sports massage"]})
    assert values(slot, "can i book a folow up apointment tmrw", ctx) == ["follow-up"]
    assert values(slot, "a sports masage on friday", ctx) == ["sports massage"]


def test_a_word_said_right_that_is_only_part_of_an_option_name_mends_nothing(ctx: SlotContext) -> None:
    slot = CategorySlot("visit_type", {"options": [{"value": "gp", "synonyms": ["gp appointment", "doctor"]},
                                                   {"value": "physio", "synonyms": ["physio session"]}]})
    assert values(slot, "I need to make an appointment", ctx) == []
    assert values(slot, "a physio sesion please", ctx) == ["physio"]


def test_category_slot_synonyms_map_to_the_canonical_value(ctx: SlotContext) -> None:
    slot = CategorySlot("meal", {"options": [{"value": "vegetarian", "synonyms": ["veggie", "no meat"]}]})
    assert slot.check("VEGGIE", ctx).value == "vegetarian"
    assert values(slot, "something with no meat", ctx) == ["vegetarian"]


def test_category_slot_reads_options_from_a_vocabulary(ctx: SlotContext) -> None:
    slot = CategorySlot("origin", {"vocabulary": "cities"})
    assert slot.check("lax", ctx).value == "Los Angeles"
    assert values(slot, "from new york to LA", ctx) == ["New York", "Los Angeles"]
    assert "isn't one of the origin options" in slot.check("Atlantis", ctx).reason


def test_category_slot_without_loaded_vocabulary_explains(ctx: SlotContext) -> None:
    slot = CategorySlot("origin", {"vocabulary": "airports"})
    result = slot.check("Boston", ctx)
    assert not result.ok and "airports list isn't loaded" in result.reason
    assert slot.extract("Boston", ctx) == []


def test_longer_option_names_win_overlaps(ctx: SlotContext) -> None:
    slot = CategorySlot("city", {"options": [{"value": "York"}, {"value": "New York"}]})
    assert values(slot, "to new york", ctx) == ["New York"]


@pytest.mark.parametrize("text", ["yes", "Yeah", "sure", "ok", "okay!", "please do", "yes please", "go ahead"])
def test_yes_no_category_extracts_yes(text: str, ctx: SlotContext) -> None:
    assert values(CategorySlot("confirm", YES_NO), text, ctx) == ["yes"]


@pytest.mark.parametrize("text", ["no", "Nope", "please don't", "no thanks", "ok, actually no", "do not"])
def test_yes_no_category_extracts_no(text: str, ctx: SlotContext) -> None:
    assert values(CategorySlot("confirm", YES_NO), text, ctx) == ["no"]


@pytest.mark.parametrize("text", ["I don't mind", "no problem", "why not"])
def test_yes_no_category_reads_not_objecting_as_yes(text: str, ctx: SlotContext) -> None:
    assert values(CategorySlot("confirm", {"options": ["yes", "no"]}), text, ctx) == ["yes"]


def test_yes_no_category_finds_nothing_in_unrelated_text(ctx: SlotContext) -> None:
    assert values(CategorySlot("confirm", YES_NO), "what time is it", ctx) == []


def test_yes_no_category_accepts_booleans(ctx: SlotContext) -> None:
    slot = CategorySlot("confirm", YES_NO)
    assert slot.check(True, ctx).value == "yes"
    assert slot.check(False, ctx).value == "no"
    assert slot.check("sure", ctx).value == "yes"


# -- Group family -----------------------------------------------------------------


def test_group_slot_splits_a_spoken_list(ctx: SlotContext) -> None:
    result = GroupSlot("columns").check("price, date and seats", ctx)
    assert result.value == ["price", "date", "seats"]
    assert result.display == "price, date and seats"


def test_group_slot_with_options_extracts_a_list(ctx: SlotContext) -> None:
    found = GroupSlot("seats", SEATS).extract("window and aisle", ctx)
    assert [c.value for c in found] == [["window", "aisle"]]


def test_group_slot_drops_repeats_and_enforces_max_size(ctx: SlotContext) -> None:
    slot = GroupSlot("tags", {"max_size": 2})
    assert slot.check(["a", "a", "b"], ctx).value == ["a", "b"]
    assert "at most 2" in slot.check(["a", "b", "c"], ctx).reason


def test_source_slot_needs_min_size_values(ctx: SlotContext) -> None:
    slot = SourceSlot("cities", {"min_size": 2})
    assert slot.check(["Paris"], ctx).reason == "I need at least 2 cities values."
    slot.fill(["Paris", "Rome"], ctx)
    assert slot.filled


def test_target_and_removal_slots_are_source_slots(ctx: SlotContext) -> None:
    assert issubclass(TargetSlot, SourceSlot) and issubclass(RemovalSlot, SourceSlot)
    assert TargetSlot("to").check("a and b", ctx).value == ["a", "b"]


def test_checklist_slot_rejects_unknown_choices(ctx: SlotContext) -> None:
    slot = ChecklistSlot("seats", SEATS)
    assert slot.check("window and aisle", ctx).value == ["window", "aisle"]
    assert slot.check(["window", "purple"], ctx).reason.startswith("'purple' isn't one of")


def test_checklist_slot_extracts_every_mentioned_choice(ctx: SlotContext) -> None:
    assert values(ChecklistSlot("seats", SEATS), "middle or window, whatever", ctx) == [["middle", "window"]]


# -- FreeText ---------------------------------------------------------------------


def test_free_text_slot_collapses_whitespace_and_checks_length(ctx: SlotContext) -> None:
    slot = FreeTextSlot("question", {"max_length": 10})
    assert slot.check("  a   b ", ctx).value == "a b"
    assert "too long" in slot.check("x" * 11, ctx).reason
    assert "some text" in slot.check("", ctx).reason


def test_free_text_slot_extracts_the_whole_utterance_with_low_score(ctx: SlotContext) -> None:
    [candidate] = FreeTextSlot("question").extract("Do you fly to Tokyo?", ctx)
    assert candidate.value == "Do you fly to Tokyo?" and candidate.score <= 0.5


# -- LevelSlot --------------------------------------------------------------------


def test_level_slot_parses_number_words(ctx: SlotContext) -> None:
    slot = LevelSlot("passengers", {"min": 1, "max": 9})
    assert slot.check("two", ctx).value == 2
    assert values(slot, "for two adults", ctx) == [2]


def test_level_slot_rejects_out_of_range_with_the_range(ctx: SlotContext) -> None:
    reason = LevelSlot("passengers", {"min": 1, "max": 9}).check(12, ctx).reason
    assert reason == "12 is out of range for the passengers: pick a number from 1 to 9."


def test_level_slot_rejects_non_numbers_and_fractions_when_integer(ctx: SlotContext) -> None:
    slot = LevelSlot("hours", {"integer": True})
    assert "isn't a number" in slot.check("blue", ctx).reason
    assert "whole number" in slot.check(2.5, ctx).reason
    assert not slot.check(True, ctx).ok


def test_level_slot_ranks_in_range_candidates_first(ctx: SlotContext) -> None:
    slot = LevelSlot("passengers", {"min": 1, "max": 9})
    assert values(slot, "on the 15th? no, 15 then 3 people", ctx)[0] == 3


def test_level_slot_extracts_digits_with_thousands_separators(ctx: SlotContext) -> None:
    assert values(LevelSlot("budget"), "about 1,200 dollars", ctx) == [1200]


# -- RangeSlot --------------------------------------------------------------------


def test_range_slot_extracts_between_and(ctx: SlotContext) -> None:
    found = RangeSlot("price").extract("between 100 and 300 dollars", ctx)
    assert found[0].value == {"min": 100, "max": 300}
    assert found[0].display == "100–300"


def test_range_slot_accepts_pairs_mappings_and_text(ctx: SlotContext) -> None:
    slot = RangeSlot("price")
    expected = {"min": 100, "max": 300}
    assert slot.check([100, 300], ctx).value == expected
    assert slot.check({"min": "100", "max": "three hundred"}, ctx).value == expected
    assert slot.check("from 100 to 300", ctx).value == expected


def test_range_slot_rejects_reversed_and_out_of_bounds_ranges(ctx: SlotContext) -> None:
    slot = RangeSlot("price", {"min": 0, "max": 1000})
    assert slot.check("300-100", ctx).reason == "The lower end (300) is above the upper end (100) of the price."
    assert "within 0 and 1000" in slot.check([10, 5000], ctx).reason
    assert "like 'between 100 and 300'" in slot.check("cheap", ctx).reason


# -- DictionarySlot ---------------------------------------------------------------


def test_dictionary_slot_parses_pairs(ctx: SlotContext) -> None:
    slot = DictionarySlot("prefs")
    assert values(slot, "seat: aisle, meal = vegan", ctx) == [{"seat": "aisle", "meal": "vegan"}]


def test_dictionary_slot_checks_allowed_and_required_keys(ctx: SlotContext) -> None:
    slot = DictionarySlot("prefs", {"keys": ["seat", "meal"], "required_keys": ["seat"]})
    assert "isn't a known prefs field" in slot.check({"colour": "red"}, ctx).reason
    assert slot.check({"meal": "vegan"}, ctx).reason == "The prefs still needs seat."
    assert slot.check({"seat": "aisle"}, ctx).ok


# -- persistence and registry --------------------------------------------------------


@pytest.mark.parametrize("raw", ["BK-54321"])
def test_slot_round_trips_through_the_registry(raw: str, ctx: SlotContext, registry: SlotRegistry) -> None:
    slot = registry.make(SlotSpec(name="booking_ref", type="ExactSlot", params=BOOKING_REF, prompt="Ref?"))
    slot.fill(raw, ctx)
    restored = registry.restore(slot.to_dict())
    assert type(restored) is type(slot)
    assert restored.to_dict() == slot.to_dict()


def test_registry_builds_domain_types_from_base_and_params(registry: SlotRegistry, ctx: SlotContext) -> None:
    slot = registry.make(SlotSpec(name="passengers", type="PassengerCountSlot"))
    assert isinstance(slot, LevelSlot) and slot.type_name == "PassengerCountSlot"
    assert slot.params == {"min": 1, "max": 9}
    assert not slot.check(10, ctx).ok
    assert len(registry.names) == 17


def test_slot_params_override_type_params(registry: SlotRegistry) -> None:
    slot = registry.make(SlotSpec(name="passengers", type="PassengerCountSlot", params={"max": 4}))
    assert slot.params == {"min": 1, "max": 4}


def test_registry_resolves_python_slot_classes(ontology: Ontology) -> None:
    onto = ontology.model_copy(update={"slot_types": {
        **ontology.slot_types,
        "ShoutSlot": SlotTypeSpec(base="BaseSlot", python="tests.state.test_slots:ShoutSlot"),
    }})
    slot = SlotRegistry.for_domain(onto).make(SlotSpec(name="x", type="ShoutSlot"))
    assert isinstance(slot, ShoutSlot)


def test_registry_names_a_bad_python_path(ontology: Ontology) -> None:
    onto = ontology.model_copy(update={"slot_types": {"Nope": SlotTypeSpec(python="no.such.module:Nope")}})
    with pytest.raises(SlotTypeError, match="cannot import python 'no.such.module:Nope'"):
        SlotRegistry.for_domain(onto)


def test_registry_unknown_type_lists_known_types(registry: SlotRegistry) -> None:
    with pytest.raises(SlotTypeError, match="unknown slot type 'Weird'.*known types: BaseSlot"):
        registry.make(SlotSpec(name="x", type="Weird"))


class ShoutSlot(BaseSlot):
    type_name = "ShoutSlot"

    def check(self, raw, ctx):  # type: ignore[no-untyped-def]
        result = super().check(raw, ctx)
        return result if not result.ok else type(result).accept(str(result.value).upper())


def test_a_reference_typed_with_a_space_or_no_dash_is_read_in_its_own_form(ctx: SlotContext) -> None:
    slot = ExactSlot("booking_ref", {"pattern": r"BK-\d{5}", "normalize": "upper"})
    assert values(slot, "when does bk 20481 leave", ctx) == ["BK-20481"]
    assert values(slot, "BK20481 pls", ctx) == ["BK-20481"]
    assert values(slot, "book 20481 seats", ctx) == []
