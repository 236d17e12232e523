"""Free-text values in everyday answers: names found in a sentence, apostrophes that quote nothing,
what a request leaves over, a property asked about, a search asked again."""

from __future__ import annotations


import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dialstack.agent import lexicon as lx
from dialstack.agent.freetext import bare_answer, cued_values, name_run, names_nothing, not_a_value, without_possessive
from dialstack.agent.scoring import cue_score
from dialstack.agent.slot_reading import asking_spans, repaired
from dialstack.domain.models import SlotSpec
from dialstack.state.slots import Candidate


def answer_to(text: str) -> str | None:
    """What the answer ``text`` to 'which one?' keeps as the value."""
    found = bare_answer(Candidate(text, text, 0, len(text), 0.5), text, whole=False)
    return None if found is None else found.value


@pytest.mark.parametrize(("said", "value"), [
    ("Pillow Talk sounds nice", "Pillow Talk"),
    ("I plan to visit Los Angeles", "Los Angeles"),
    ("At Anaheim Intermodal Center", "Anaheim Intermodal Center"),
    ("The Hobbit", "The Hobbit"),
    ("Rite Aid on Elm Street", "Rite Aid on Elm Street"),
    ("Captain Marvel, please", "Captain Marvel"),
    ("san jose please", "san jose"),
    ("seafood would be great", "seafood"),
    ("42 Harbour Road, Apt 3", "42 Harbour Road, Apt 3"),
    ("sorry. I have changed my mind. Please play Ramen Shop instead and please include the rest", "Ramen Shop"),
])
def test_an_answer_keeps_the_name_it_gives_not_its_lead_in_or_its_verdict(said: str, value: str) -> None:
    assert answer_to(said) == value


@pytest.mark.parametrize("said", [
    "Anywhere in San Francisco would be fine",
    "Nope, you've been great, thanks for your help, really it was all very useful",
])
def test_a_long_answer_without_a_name_keeps_nothing(said: str) -> None:
    kept = answer_to(said)
    assert kept is None or kept.lower() not in ("anywhere", said.lower())


@pytest.mark.parametrize(("text", "found"), [
    ("to LA. I need a car", "LA"),
    ("in Oakland and I want dinner", "Oakland"),
    ("Please play Ramen Shop instead", "Ramen Shop"),
    ("Book me into The Grand Budapest tonight", "The Grand Budapest"),
])
def test_a_name_run_stops_at_the_end_of_a_sentence_and_at_i(text: str, found: str) -> None:
    named = name_run(text)
    assert named is not None and named.value == found


def test_a_capital_that_only_opens_a_sentence_is_not_a_name() -> None:
    assert name_run("Perfect. Thanks.") is None
    assert name_run("Sounds good, what else?") is None


def test_the_apostrophes_of_contractions_and_possessives_quote_nothing() -> None:
    spec = SlotSpec(name="event_name", type="FreeTextSlot", description="The name of the event")
    text = "Yes, that's fine. You can call it Restaurant reservation at Akiko's Sushi Bar."
    assert not any("s fine" in cand.value for _, cand in cued_values(spec, text))
    quoted = cued_values(spec, "call it 'Team lunch' please")
    assert any(cand.value == "Team lunch" for _, cand in quoted)


@pytest.mark.parametrize(("text", "asks"), [
    ("Does it have wifi?", True),
    ("How much is it per night? Also does it have wifi?", True),
    ("Is the apartment furnished?", True),
    ("Can you find me one with wifi?", False),
    ("Are there any with wifi?", False),
    ("How much have I got left in the joint account?", False),
    ("I want one with wifi.", False),
])
def test_a_yes_no_question_asks_about_a_property_it_does_not_choose_it(text: str, asks: bool) -> None:
    assert bool(asking_spans(text)) is asks


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("abcXYZ .,!?'\"-")), max_size=60))
def test_a_name_run_is_always_a_stretch_of_what_was_said(text: str) -> None:
    named = name_run(text)
    if named is not None:
        assert text[named.start:named.end] == named.value
        assert named.value.strip() == named.value and named.value



# -- closings in one's own words ---------------------------------------------------------------

@pytest.mark.parametrize("said", [
    "No, thank you. That is all the assistance I need right now",
    "Nothing now, thanks for asking though.",
    "No. I am all set. Thanks.",
    "Nope, thanks much for your help.",
    "No, that would be all for today. Thank you again for your help.",
    "No I am well",
])
def test_a_goodbye_in_ones_own_words_is_a_closing_and_never_a_value(said: str) -> None:
    assert lx.is_closing(said)
    assert not_a_value(said)


@pytest.mark.parametrize("said", [
    "Yes, confirmed to proceed.",
    "That suits me well.",
    "Sound like a plan!",
    "Yes, I'd like to make that reservation.",
    "Yup, you are exactly correct.",
    "That works out for me.",
    "Yes, that's what I want.",
    "No, don't transfer. thanks.",
    "show me more options.",
    "Maybe later on.",
])
def test_agreeing_judging_or_asking_to_go_on_names_no_value(said: str) -> None:
    assert not_a_value(said)


@pytest.mark.parametrize("said", [
    "Yes, please transfer $690.",
    "The Help", "Never Let Me Go", "Start With Why", "Ty",
    "Good Will Hunting",
    "the grand hotel",
    "a checkup",
    "Yes, Ozumo.",
])
def test_a_name_or_an_amount_beside_a_yes_is_still_a_value(said: str) -> None:
    assert not not_a_value(said)


@pytest.mark.parametrize("said", [
    "Thank you so much!",  # mid-task thanks: the task goes on
    "no thanks, book the hotel too",
    "No, I need it for 2 people",
    "is that all you have?",
    "all of them",
])
def test_thanks_alone_a_no_with_a_request_or_a_question_is_not_a_closing(said: str) -> None:
    assert not lx.is_closing(said)


# -- the two ends of a range, and remarks ------------------------------------------------------

def _end_wins(text: str, value: str, start_slot: SlotSpec, end_slot: SlotSpec) -> bool:
    """Whether the words around ``value`` in ``text`` point at the end of the range more than its start."""
    at = text.index(value)
    cand = Candidate(value, value, at, at + len(value), 1.0)
    return cue_score(text, cand, end_slot, None) > cue_score(text, cand, start_slot, None)


@pytest.mark.parametrize(("text", "value", "end"), [
    ("I need the car from the 4th until the 10th", "the 10th", True),
    ("I need the car from the 4th until the 10th", "the 4th", False),
    ("keep it till 6th of this month", "6th of this month", True),
    ("checking in on the 3rd and returning on the 9th", "the 9th", True),
])
def test_until_and_returning_point_at_the_end_of_a_range_from_at_its_start(text: str, value: str, end: bool) -> None:
    pickup = SlotSpec(name="pickup_date", type="DateSlot", description="The date the car is picked up")
    dropoff = SlotSpec(name="dropoff_date", type="DateSlot", description="The date the car is returned")
    assert _end_wins(text, value, pickup, dropoff) is end


@pytest.mark.parametrize(("text", "value", "end"), [
    ("I'm leaving this Saturday to go to Seattle. I want to fly back on the 7th of March", "the 7th", True),
    ("I'm leaving this Saturday to go to Seattle. I want to fly back on the 7th of March", "this Saturday", False),
    ("I'll be departing later today and returning on the 10th", "today", False),
    ("leave today and come back home on the 6th", "the 6th", True),
])
def test_words_further_back_in_the_clause_say_which_end_of_a_trip_a_date_is(text: str, value: str, end: bool) -> None:
    out = SlotSpec(name="departure_date", type="DateSlot", description="Start date of the trip")
    back = SlotSpec(name="return_date", type="DateSlot", description="Date of the return flight")
    assert _end_wins(text, value, out, back) is end


@pytest.mark.parametrize(("text", "value", "end"), [
    ("I am arriving later today and leaving on the 5th", "the 5th", True),
    ("I am arriving later today and leaving on the 5th", "today", False),
    ("please set the check-out date to March 11th", "March 11th", True),
    ("I want to check in Sunday this week", "Sunday", False),
    ("book it up to March 13th", "March 13th", True),
])
def test_a_stay_is_left_at_its_end_and_its_own_name_points_at_a_date(text: str, value: str, end: bool) -> None:
    check_in = SlotSpec(name="check_in_date", type="DateSlot", description="Start date of the stay")
    check_out = SlotSpec(name="check_out_date", type="DateSlot", description="End date of the stay")
    assert _end_wins(text, value, check_in, check_out) is end


@pytest.mark.parametrize("said", ["I wish to pick it up from SFO.", "I plan to fly out of Denver", "we are going to Paris"])
def test_a_sentence_about_ones_plans_is_no_remark(said: str) -> None:
    assert not lx.REMARK.match(said)


@pytest.mark.parametrize("said", ["I was in Paris once", "I love New York", "my cat loves snacks"])
def test_a_remark_about_oneself_is_still_a_remark(said: str) -> None:
    assert lx.REMARK.match(said)


@pytest.mark.parametrize(("said", "asks_for_a_task"), [
    ("How about booking the restaurant now?", True),
    ("Yes that is fine now can I book that hotel we discussed?", True),
    ("It is good. Shall I book the flight?", True),
    ("can I bring pets?", False),
    ("how about the Hilton?", False),
])
def test_a_request_phrased_as_a_question_asks_for_a_task(said: str, asks_for_a_task: bool) -> None:
    assert bool(lx.REQUEST_ANYWHERE.search(said)) is asks_for_a_task


# -- cues a slot's own name gives ---------------------------------------------------------------

PATIENT = SlotSpec(name="patient_name", type="FreeTextSlot", params={"label": "patient's name"})
REASON = SlotSpec(name="reason", type="FreeTextSlot", params={"label": "reason for the visit"})


def cued(spec: SlotSpec, text: str) -> list[str]:
    return [cand.value for score, cand in cued_values(spec, text) if score > 0]


@pytest.mark.parametrize(("said", "name"), [
    ("book general practice for friday at 9:30 for Eva Roth, she has a cough", "Eva Roth"),
    ("put it under Ana Ruiz please", "Ana Ruiz"),
    ("hi, this is Ida Lund", "Ida Lund"),
])
def test_a_person_is_pointed_at_by_for_under_and_this_is(said: str, name: str) -> None:
    assert name in cued(PATIENT, said)


@pytest.mark.parametrize("said", ["a table for two", "for friday at 10", "for 4 people please", "I'm looking for a GP"])
def test_for_points_at_no_person_without_a_capitalised_name(said: str) -> None:
    assert cued(PATIENT, said) == []


@pytest.mark.parametrize(("said", "reason"), [
    ("book a GP on monday at 10am for Ana Ruiz, reason flu shot", "flu shot"),
    ("wednesday at 11, reason: annual physical", "annual physical"),
    ("friday 9am. The reason is a sore throat", "a sore throat"),
])
def test_a_slots_own_name_opening_a_clause_points_at_its_value(said: str, reason: str) -> None:
    assert reason in cued(REASON, said)


def test_a_slots_name_inside_a_sentence_points_at_nothing() -> None:
    assert cued(REASON, "for some reason I can't make Friday") == []


@pytest.mark.parametrize("value", ["yes", "ok", "it", "anywhere", "something", ""])
def test_a_lone_yes_or_pronoun_names_nothing(value: str) -> None:
    assert names_nothing(value)


def test_a_word_the_pack_never_uses_counts_as_the_synonym_it_does_use() -> None:
    assert lx.stem("cancel") in lx.SYNONYMS[lx.stem("drop")]
    assert lx.stem("drop") in lx.SYNONYMS[lx.stem("cancel")]
    assert lx.stem("rent") in lx.SYNONYMS[lx.stem("hire")]


@pytest.mark.parametrize(("said", "place"), [
    ("a one-way flight to Paris, France.", "Paris, France"),
    ("flying to London, UK for four days", "London, UK"),
    ("flights to Paris, London and Rome", "Paris"),
    ("cities like Paris, Rome, Oslo", None),
])
def test_a_region_after_a_comma_belongs_to_the_place_not_a_list(said: str, place: str | None) -> None:
    spec = SlotSpec(name="destination_city", type="FreeTextSlot")
    found = [cand.value for score, cand in cued_values(spec, said) if score > 0]
    assert (found[0] if found else None) == place


def test_at_least_starts_no_place() -> None:
    spec = SlotSpec(name="area", type="FreeTextSlot", description="The city of the apartment")
    assert cued_values(spec, "I need at least two bedrooms", asked=True) == []


def test_call_it_points_at_a_name() -> None:
    spec = SlotSpec(name="event_name", type="FreeTextSlot")
    assert "Team Lunch" in [c.value for _, c in cued_values(spec, "add it and call it Team Lunch please")]


@pytest.mark.parametrize("said", [
    "any doctor is fine", "whichever doctor is free is fine", "no preference", "it doesn't matter",
    "either is fine", "I'm easy", "up to you", "I don't care which airline", "whatever time works",
])
def test_saying_any_would_do_is_no_value(said: str) -> None:
    assert lx.NO_PREFERENCE.match(said)
    assert not_a_value(said)


@pytest.mark.parametrize("said", ["Anywhere in San Francisco would be fine", "anything on Friday is fine",
                                  "any cheap italian place in Boston"])
def test_any_with_a_place_or_a_day_still_says_something(said: str) -> None:
    assert not lx.NO_PREFERENCE.match(said)


@pytest.mark.parametrize(("said", "again"), [
    ("same for savings", True), ("what about joint?", True), ("and the joint one?", True),
    ("ok, how about Oakland?", True), ("and for 4 people", True),
    ("what is my balance?", False), ("savings", False), ("and book it", False),
])
def test_an_elliptical_request_asks_the_task_just_done_again(said: str, again: bool) -> None:
    assert bool(lx.ELLIPSIS.match(said)) is again


def test_an_i_mean_after_the_new_value_looks_back_at_the_repair_before_it() -> None:
    text = "from Paris to Madrid, sorry, to Rome I mean, on December 9"
    def at(value: str) -> Candidate:
        start = text.index(value)
        return Candidate(value, value, start, start + len(value), 1.0)
    found = [(3.0, "destination", at("Madrid")), (3.0, "destination", at("Rome")), (3.0, "origin", at("Paris"))]
    kept = {c.value: score for score, name, c in repaired(found, set(), text) if name == "destination"}
    assert "Madrid" not in kept and "Rome" in kept


def _best_cued(spec: SlotSpec, text: str) -> float:
    return max((score for score, _ in cued_values(spec, text)), default=0.0)


def test_at_points_at_a_venue_by_name_more_than_at_the_city_it_is_in() -> None:
    text = "I'd love to watch Little at CineLux Almaden on March 5th"
    theater = SlotSpec(name="theater_name", type="FreeTextSlot", description="Name of the theatre")
    city = SlotSpec(name="location", type="FreeTextSlot", description="City where the theatre is located")
    assert _best_cued(theater, text) > _best_cued(city, text) > 0


def test_to_a_name_points_at_the_recipient_and_not_at_an_amount() -> None:
    text = "Send $1,780 to Amir"
    recipient = SlotSpec(name="recipient_account_name", type="FreeTextSlot",
                         description="The account name of the recipient who is to receive the transfered money")
    amount = SlotSpec(name="amount", type="FreeTextSlot", description="The amount of money to transfer")
    assert _best_cued(recipient, text) > 0 and _best_cued(amount, text) == 0


@pytest.mark.parametrize(("text", "value", "kept"), [("show me Tom Becker's appointments", "Tom Becker's", "Tom Becker"),
                                                    ("a table at Frida's in Napa", "Frida's", "Frida's"),
                                                    ("the Jones' booking", "Jones'", "Jones")])
def test_a_name_that_owns_the_next_word_loses_its_possessive(text: str, value: str, kept: str) -> None:
    start = text.index(value)
    assert without_possessive(Candidate(value, value, start, start + len(value), 1.0), text).value == kept


@pytest.mark.parametrize(("said", "held", "new"), [("sorry I meant 11 not 10", "2026-12-04T10:00", "2026-12-04T11:00"),
                                                   ("no wait, make it 4", "2026-12-04T15:00", "2026-12-04T16:00"),
                                                   ("I meant 11, not 9", "2026-12-04T10:00", None)])
def test_a_bare_hour_said_to_correct_moves_the_time_already_given(said: str, held: str, new: str | None) -> None:
    from datetime import datetime, timezone

    from dialstack.agent.slot_reading import hour_repairs
    from dialstack.state.slot_datetime import DateTimeSlot
    from dialstack.state.slots import SlotContext
    ctx = SlotContext(now=datetime(2026, 12, 1, 9, tzinfo=timezone.utc), vocabularies={})
    when = DateTimeSlot("when", {}, priority="required")
    when.fill(held, ctx)
    found = hour_repairs({"when": when}, said, ctx)
    assert (found["when"].value if found else None) == new


@pytest.mark.parametrize(("text", "value"), [("for Eva Roth, she has a cough", "cough"),
                                             ("he's got a sore throat", "sore throat"),
                                             ("because of a rash on my arm", "rash")])
def test_what_someone_has_is_the_reason_for_a_visit(text: str, value: str) -> None:
    reason = SlotSpec(name="reason", type="FreeTextSlot", description="The reason for the visit")
    assert value in [c.value for _, c in cued_values(reason, text)]


PATIENT = SlotSpec(name="patient_name", type="FreeTextSlot", description="The full name of the patient")


@pytest.mark.parametrize(("said", "name"), [("book my son Tom Becker in with the paediatrician", "Tom Becker"),
                                           ("an appointment for my daughter Emma Lee on Friday", "Emma Lee"),
                                           ("its for my mum, Rosa Delgado", "Rosa Delgado"),
                                           ("whats booked for tom becker", "tom becker")])
def test_a_patient_is_named_after_who_they_are_or_in_lower_case_at_the_end(said: str, name: str) -> None:
    assert name in [c.value for _, c in cued_values(PATIENT, said)]


@pytest.mark.parametrize("said", ["can i book a slot for next friday please", "a table for two", "book it for the morning"])
def test_plain_words_after_for_are_no_patient(said: str) -> None:
    assert cued_values(PATIENT, said) == []


def test_a_value_said_then_taken_back_goes_to_no_slot_and_the_repairs_own_cue_says_the_slot() -> None:
    text = "from Chicago to Paris - no wait, from Boston"
    found = [(3.0, "origin", Candidate("Chicago", "Chicago", 5, 12, 0.9)), (-1.0, "destination", Candidate("Chicago", "Chicago", 5, 12, 0.9)),
             (-1.0, "origin", Candidate("Paris", "Paris", 16, 21, 0.9)), (3.0, "destination", Candidate("Paris", "Paris", 16, 21, 0.9)),
             (3.0, "origin", Candidate("Boston", "Boston", 38, 44, 0.9)), (-1.0, "destination", Candidate("Boston", "Boston", 38, 44, 0.9))]
    out = repaired(found, set(), text)
    best = {name: max((s, c.value) for s, n, c in out if n == name)[1] for name in ("origin", "destination")}
    assert best == {"origin": "Boston", "destination": "Paris"}
    assert "Chicago" not in [c.value for _, _, c in out]


@pytest.mark.parametrize(("said", "name"), [("book an adjustment for Will Turner", "Will Turner"),
                                            ("Grace Lee please", "Grace Lee"), ("Will you book it", None)])
def test_a_first_name_that_is_also_a_word_opens_a_name_of_two_capitals(said: str, name: str | None) -> None:
    found = name_run(said)
    assert (found.value if found else None) == name


@pytest.mark.parametrize("said", ["it's not getting better", "fitness to fly", "I'm going to travel"])
def test_a_story_is_a_reason_in_any_words(said: str) -> None:
    assert not not_a_value(said, remark_ok=True)
