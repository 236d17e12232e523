"""Everyday readings fixed in the twelfth session: a yes to a read-back that names another task's verb
('yes, cancel it' to a booking's read-back) is no yes; letting go in more words; a reference said alone."""

from __future__ import annotations


import pytest

from dialstack.agent import lexicon as lx

from .nlu_support import PACKS, stack_names as stack_of, talking, tools_of

BOOK_DENVER = "book a flight from boston to denver on the 20th"


# -- a yes that names another task takes itself back ---------------------------------------------------
@pytest.mark.parametrize("text", ["yes, cancel it", "yes, change it", "yeah cancel that please"])
def test_a_yes_with_another_tasks_verb_at_a_bookings_read_back_never_books(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_DENVER)
        result = agent.handle("s", text)
        assert "create_booking" not in tools_of(result)
        assert "book_flight" in stack_of(agent)


def test_a_yes_with_another_tasks_verb_to_a_cancel_question_cancels_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-31337")
        result = agent.handle("s", "yes, move it")
        assert "cancel_booking" not in tools_of(result)
        assert stack_of(agent)[-1] == "modify_booking"


@pytest.mark.parametrize("text", ["ok fine, yes go ahead and cancel", "yes cancel it please", "yep, cancel it"])
def test_a_yes_with_the_read_back_tasks_own_verb_confirms_it(text: str) -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        agent.handle("s", "please cancel my place, the ref is CR-2001")
        result = agent.handle("s", text)
        assert tools_of(result) == ["cancel_class_booking"] and stack_of(agent) == []


def test_a_yes_with_the_read_back_tasks_own_verb_confirms_after_a_side_question() -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        agent.handle("s", "please cancel my place, the ref is CR-2001")
        agent.handle("s", "before i do, will i lose my place on the programme if i miss this one?")
        result = agent.handle("s", "ok fine, yes go ahead and cancel")
        assert tools_of(result) == ["cancel_class_booking"]


@pytest.mark.parametrize("text", ["yes ta", "yes cheers", "yep, ta"])
def test_a_yes_with_thanks_in_british_words_is_a_yes(text: str) -> None:
    assert lx.AFFIRM.match(text)


# -- letting go, in more words ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["no thats ok, ill wait to hear from them", "no, we'll wait for the call",
                                  "on second thoughts no", "nah i'll just wait"])
def test_a_no_that_waits_for_someone_declines(text: str) -> None:
    assert lx.DENY.match(text)


@pytest.mark.parametrize("text", ["on second thoughts no, i'll still go to it", "no, she'll still make it",
                                  "actually no, don't worry about it"])
def test_a_no_that_keeps_the_thing_lets_the_task_go(text: str) -> None:
    assert lx.NO_LEAD.match(text) and lx.LET_IT_BE.search(text)


def test_changing_ones_mind_at_a_cancels_read_back_keeps_the_appointment() -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", "pls cancel my appointment")
        agent.handle("s", "its PC-1001 i think")
        result = agent.handle("s", "on second thoughts no, i'll still go to it")
        assert tools_of(result) == [] and stack_of(agent) == []


@pytest.mark.parametrize("text", ["actually dont worry about the course", "don't worry about the course",
                                  "you know what, leave it for now, my knee is playing up again"])
def test_not_worrying_about_it_or_leaving_it_for_now_stops_the_task(text: str) -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", "I want to join a course")
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and result.understanding["command"] == "cancel_flow"


@pytest.mark.parametrize("text", ["leave it at two", "leave it as friday please"])
def test_leaving_a_value_as_it_is_stops_nothing(text: str) -> None:
    assert not lx.CANCEL.match(text)


# -- greetings, remarks and closings ----------------------------------------------------------------------
def test_a_greeting_that_wishes_you_well_starts_no_task_though_it_says_an_option() -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        result = agent.handle("s", "morning! hope youre well")
        assert stack_of(agent) == [] and result.understanding["rule"] == "chats"


def test_a_remark_about_oneself_that_ends_laughing_starts_no_task() -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", "hi there")
        result = agent.handle("s", "honestly my back is killing me today lol")
        assert stack_of(agent) == [] and tools_of(result) == []


@pytest.mark.parametrize("text", ["book me in for acupuncture tomorrow haha", "acupuncture friday at 10 lol"])
def test_a_request_that_ends_laughing_is_still_a_request(text: str) -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["book_appointment"]


@pytest.mark.parametrize("text", ["brill, cheers for that, bye for now", "brilliant, that's me sorted, cheers",
                                  "i'm all sorted, thanks"])
def test_british_closings_close(text: str) -> None:
    assert lx.is_closing(text)


@pytest.mark.parametrize("text", ["can you get that sorted for me", "sorted", "great, sorted", "sorted thanks"])
def test_sorted_alone_agrees_and_closes_nothing(text: str) -> None:
    assert not lx.is_closing(text)


def test_sorted_at_a_read_back_keeps_the_task() -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_DENVER)
        agent.handle("s", "great, sorted")
        assert stack_of(agent) == ["book_flight"]


# -- what one has, and whether someone may come ------------------------------------------------------------
def test_asking_which_classes_one_is_down_for_lists_ones_bookings() -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        result = agent.handle("s", "which classes am i down for at the moment?")
        assert tools_of(result) == ["list_class_bookings"]


def test_asking_whether_someone_may_come_along_is_a_question_not_a_booking() -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        result = agent.handle("s", "and can my husband come with me?")
        assert tools_of(result) == ["answer_rehab_question"] and stack_of(agent) == []


def test_asking_for_someone_to_come_on_a_day_is_still_a_request() -> None:
    assert lx.REQUEST_ANYWHERE.search("can my son come in on friday for a check up")


@pytest.mark.parametrize("text", ["i can no longer make CR-2001", "my husband can no longer come to his class, CR-2002"])
def test_no_longer_able_to_come_cancels(text: str) -> None:
    with talking("cardiorehab", PACKS / "cardiorehab") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["cancel_booking"]


# -- wanting, and a party got ------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["i want to go to chicago", "i gotta get to chicago", "we have to get to chicago"])
def test_wanting_to_get_to_one_place_starts_the_task_that_gets_you_there(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        flow = agent.load("s").stack.flows[-1]
        assert flow.name == "book_flight" and flow.slots["destination"].value == "Chicago"


def test_asking_to_get_a_party_somewhere_books_for_the_party() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "can you get 3 of us from LA to NYC on dec 20")
        flow = agent.load("s").stack.flows[-1]
        assert flow.name == "book_flight" and flow.slots["passengers"].value == 3
        assert "search_flights" not in tools_of(result)


# -- one request with a 'then' that ends its clause; a name after who it is -----------------------------------
def test_values_after_a_then_that_complete_the_request_split_nothing() -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        result = agent.handle("s", "ok great, can i book a first appointment then, monday 7th at 9:30")
        flow = agent.load("s").stack.flows[-1]
        assert flow.slots["when"].value == "2026-12-07T09:30" and "One thing at a time" not in result.reply


@pytest.mark.parametrize("text", ["book boston to denver on dec 10 then, denver to seattle on dec 15",
                                  "boston to denver on the 10th, then denver to seattle on the 14th"])
def test_two_legs_after_a_then_are_both_planned(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["plan_trip"]


def test_a_then_comma_between_two_requests_does_the_first_and_queues_the_second() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "check BK-12345 then, cancel BK-20481")
        assert "get_booking" in tools_of(result)
        flow = agent.load("s").stack.flows[-1]
        assert flow.name == "cancel_booking" and flow.slots["booking_ref"].value == "BK-20481"


@pytest.mark.parametrize(("text", "name"), [("it's my husband who needs it, Peter Kowalski", "Peter Kowalski"),
                                            ("its for my mum, Rosa Delgado", "Rosa Delgado"),
                                            ("it's for me, Ann Lee", "Ann Lee"),
                                            ("Maria de la Cruz", "Maria de la Cruz")])
def test_the_name_written_with_capitals_is_the_patients_name(text: str, name: str) -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", "hi could i book an injection")
        agent.handle("s", "wednesday 9th at 1pm")
        agent.handle("s", text)
        assert agent.load("s").stack.flows[-1].slots["patient_name"].value == name


# -- a reference said alone ----------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["could you pull up TW-2043 please", "TW-2043"])
def test_a_reference_said_in_no_word_of_the_pack_is_looked_up(text: str) -> None:
    with talking("tidewell", PACKS / "tidewell") as agent:
        result = agent.handle("s", text)
        assert tools_of(result) == ["get_booking"] and "Ivy Marsh" in result.reply
        assert result.understanding["rule"] == "shows_what_it_names"


def test_a_reference_with_a_task_word_goes_to_that_task() -> None:
    with talking("tidewell", PACKS / "tidewell") as agent:
        agent.handle("s", "cancel TW-2043")
        assert stack_of(agent) == ["cancel_booking"]


# -- round 48: help in other words, questions about another route, proposals, thanks --------------------------
@pytest.mark.parametrize("text", ["hi, what sorts of things can you help me with", "what else can u do?",
                                  "how can you help me?", "what kinds of things do you handle"])
def test_asking_what_the_assistant_can_do_in_other_words_asks_for_help(text: str) -> None:
    assert lx.HELP.match(text)


def test_asking_what_it_can_do_on_a_day_is_no_plain_help() -> None:
    assert not lx.HELP.match("what can you do for me on the 15th?")


def test_a_question_about_another_route_mid_booking_searches_it_and_offers_the_booking_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i need to fly boston to chicago")
        result = agent.handle("s", "quick q, what are prices like from new york to los angeles on dec 19?")
        assert tools_of(result) == ["search_flights"]
        flow = agent.load("s").stack.flows[-1]
        assert flow.name == "book_flight" and flow.slots["origin"].value == "Boston"


@pytest.mark.parametrize(("text", "slot", "value"), [("actually can it be from new york?", "origin", "New York"),
                                                     ("could we do the 22nd instead?", "date", "2026-12-22")])
def test_a_value_put_forward_as_a_question_at_the_read_back_changes_it(text: str, slot: str, value: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "i need to fly boston to chicago on the 20th")
        result = agent.handle("s", text)
        assert agent.load("s").stack.flows[-1].slots[slot].value == value
        assert "shall I go ahead" in result.reply and tools_of(result) == []


def test_a_value_put_forward_after_a_reason_changes_it_and_starts_no_other_task() -> None:
    with talking("postnatal", PACKS / "postnatal") as agent:
        agent.handle("s", "book me a clinic feeding session monday at 10")
        agent.handle("s", "sorry my partner's back at work monday, can we do friday at 10 instead")
        assert stack_of(agent) == ["book_feeding_session"]
        assert agent.load("s").stack.flows[-1].slots["when"].value == "2026-12-04T10:00"


def test_asking_may_i_book_one_books_rather_than_listing_bookings() -> None:
    with talking("postnatal", PACKS / "postnatal") as agent:
        result = agent.handle("s", "ok can i book one for monday at 1")
        assert stack_of(agent) == ["book_feeding_session"] and tools_of(result) == []


def test_asking_whether_the_nurse_can_come_to_her_instead_is_a_request_that_replaces_the_task() -> None:
    with talking("woundcare", PACKS / "woundcare") as agent:
        agent.handle("s", "i want to book my gran in for a dressing change")
        agent.handle("s", "actually she cant get out the house, can the nurse come to her instead?")
        assert stack_of(agent) == ["home_visit"]


@pytest.mark.parametrize("text", ["sure why not", "Brilliant, ta very much", "lovely ok thats everything, ta x",
                                  "nah not right now ta, ill sort it later", "oh wait no dont, she still needs it"])
def test_more_everyday_yes_thanks_and_no_words(text: str) -> None:
    said = {"sure why not": lx.AFFIRM.match(text), "Brilliant, ta very much": lx.only_thanks(text),
            "lovely ok thats everything, ta x": lx.is_closing(text),
            "nah not right now ta, ill sort it later": lx.DENY.match(text),
            "oh wait no dont, she still needs it": lx.NO_LEAD.match(text) and lx.LET_IT_BE.search(text)}
    assert said[text]


def test_a_count_repaired_with_actually_and_a_reason_changes_the_count() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to denver on the 20th for 2")
        agent.handle("s", "make it 3 actually, her brother's coming too")
        assert agent.load("s").stack.flows[-1].slots["passengers"].value == 3


def test_two_words_said_the_other_way_round_make_the_packs_compound_word() -> None:
    with talking("tidewell", PACKS / "tidewell") as agent:
        result = agent.handle("s", "what have i got coming up with you?")
        assert tools_of(result) == ["list_bookings"]


def test_paying_is_asked_in_the_words_of_cost() -> None:
    with talking("quitline", PACKS / "quitline") as agent:
        result = agent.handle("s", "and do i have to pay for it?")
        assert tools_of(result) == ["answer_question"] and stack_of(agent) == []


@pytest.mark.parametrize("text", ["I need to get to Atlanta from Miami, no actually from Orlando"])
def test_a_value_taken_back_on_the_way_still_starts_the_task_with_the_new_value(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        flow = agent.load("s").stack.flows[-1]
        assert flow.name == "book_flight" and flow.slots["origin"].value == "Orlando"


# -- the review of this session's rules: what must not change ------------------------------------------------
@pytest.mark.parametrize("text", ["ok, change it", "sure, move it", "ok move it thanks", "yes move it please, cheers"])
def test_an_everyday_yes_with_the_changes_own_verb_confirms_the_change(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "change BK-12345 to dec 20")
        result = agent.handle("s", text)
        assert tools_of(result) == ["update_booking"]


@pytest.mark.parametrize("text", ["yes cancel it, i'll book another one later", "yes please, i'll change my plans"])
def test_another_task_put_off_for_later_takes_no_yes_back(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-31337")
        result = agent.handle("s", text)
        assert "cancel_booking" in tools_of(result)


@pytest.mark.parametrize("text", ["yes, send it", "yes, book it and send it"])
def test_a_yes_with_another_tasks_verb_after_a_clear_yes_never_books(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", BOOK_DENVER)
        result = agent.handle("s", text)
        assert "create_booking" not in tools_of(result)


def test_a_booking_verb_at_a_cancels_confirmation_cancels_nothing() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-31337")
        result = agent.handle("s", "yes, book it")
        assert "cancel_booking" not in tools_of(result)


@pytest.mark.parametrize("text", ["no, leave it at 2 passengers", "leave it as friday please"])
def test_leaving_a_value_as_it_is_lets_nothing_go(text: str) -> None:
    assert not lx.LET_IT_BE.search(text)


def test_dont_worry_about_it_to_an_optional_question_keeps_the_task() -> None:
    with talking("restaurant", PACKS / "restaurant") as agent:
        agent.handle("s", "book a table at luigi's for 4 tomorrow at 7pm")
        assert agent.handle("s", "no, the special request").reply == "Any special request?"
        agent.handle("s", "don't worry about it")
        assert stack_of(agent) == ["reserve_table"]


@pytest.mark.parametrize("text", ["can you get me to chicago", "have to get to LA asap"])
def test_asking_to_be_got_somewhere_starts_the_booking(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["book_flight"]


@pytest.mark.parametrize(("text", "name"), [("the patient is my daughter, Emily Rose", "Emily Rose"),
                                            ("Peter Kowalski, it's for my husband", "Peter Kowalski"),
                                            ("Sarah Jones, my wife", "Sarah Jones")])
def test_a_name_before_or_after_who_it_is_is_the_name(text: str, name: str) -> None:
    with talking("painclinic", PACKS / "painclinic") as agent:
        agent.handle("s", "hi could i book an injection")
        agent.handle("s", "wednesday 9th at 1pm")
        agent.handle("s", text)
        assert agent.load("s").stack.flows[-1].slots["patient_name"].value == name


def test_how_are_you_going_to_do_that_is_no_small_talk() -> None:
    assert not lx.asks_after_you("how are you going to do that?") and lx.asks_after_you("hiya hows ur day going")


# -- round 49: texting, the user's own errand, a day said again, an age, 'half ten', a drop-in --------------------
@pytest.mark.parametrize(("said", "plain"), [("hiii can i book a flght?", "hi can i book a flght?"),
                                             ("heyyy", "hey"), ("cn u chk", "can u chk"),
                                             ("a flu jab 4 my mum", "a flu jab for my mum"),
                                             ("at 4 my time", "at 4 my time"), ("book 4 people", "book 4 people")])
def test_drawn_out_greetings_and_texted_words_are_said_plainly(said: str, plain: str) -> None:
    assert lx.plain_words(said) == plain


def test_a_request_after_a_drawn_out_greeting_is_a_request() -> None:
    with talking("travel") as agent:
        agent.handle("s", "hiii can i book a flght?")
        assert stack_of(agent) == ["book_flight"]


def test_the_users_own_errand_before_the_reference_asked_for_answers_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i want to cancel a booking")
        agent.handle("s", "Let me find my glasses... it says BK-31337")
        flow = agent.load("s").stack.flows[-1]
        assert flow.name == "cancel_booking" and flow.slots["booking_ref"].value == "BK-31337"


def test_turning_away_to_ask_about_another_booking_still_turns_away() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i want to cancel a booking")
        result = agent.handle("s", "wait, what's the status of BK-20481?")
        assert tools_of(result) == ["get_booking"]


def test_a_yes_that_says_the_day_again_confirms() -> None:
    with talking("vaxclinic", PACKS / "vaxclinic") as agent:
        agent.handle("s", "I need to move my jab appointment VX-1001 to friday at 2pm")
        result = agent.handle("s", "yes, friday's perfect")
        assert tools_of(result) == ["move_vaccination"]


def test_a_yes_with_another_day_changes_it_and_asks_again() -> None:
    with talking("vaxclinic", PACKS / "vaxclinic") as agent:
        agent.handle("s", "I need to move my jab appointment VX-1001 to friday at 2pm")
        result = agent.handle("s", "yes, saturday is better")
        assert tools_of(result) == [] and agent.load("s").stack.flows[-1].slots["new_when"].value == "2026-12-05T14:00"


@pytest.mark.parametrize(("text", "age"), [("am I entitled to a free flu jab? I'm 68", 68),
                                           ("is my dad eligible for the flu jab, he's 81 years old", 81)])
def test_an_age_said_unasked_is_the_age(text: str, age: int) -> None:
    with talking("vaxclinic", PACKS / "vaxclinic") as agent:
        result = agent.handle("s", text)
        assert f"At {age}" in result.reply and tools_of(result) == ["check_eligibility"]


def test_a_number_that_is_no_age_is_not_taken_as_one() -> None:
    with talking("vaxclinic", PACKS / "vaxclinic") as agent:
        result = agent.handle("s", "am I entitled to a free flu jab? I live at 27 Green Lane")
        assert "How old" in result.reply


@pytest.mark.parametrize(("text", "hour", "minute"), [("thursday morning maybe, about half ten?", 10, 30),
                                                      ("half 3", 15, 30), ("half ten in the evening", 22, 30)])
def test_half_an_hour_the_british_way_is_half_past(text: str, hour: int, minute: int) -> None:
    from dialstack.state.times import find_times
    assert [(t.hour, t.minute) for t, _, _ in find_times(text)] == [(hour, minute)]


def test_half_with_hours_after_it_is_no_time() -> None:
    from dialstack.state.times import find_times
    assert find_times("half 2 hours") == []


def test_a_drop_in_said_in_two_words_is_the_packs_drop_in_not_a_drop() -> None:
    with talking("hearingrepair", PACKS / "hearingrepair") as agent:
        agent.handle("s", "I need to rearrange my drop in, the ref is DR-3001")
        assert stack_of(agent) == ["move_dropin"]


@pytest.mark.parametrize("text", ["smashing, thank you very much, goodbye", "thank you dear, that's everything"])
def test_older_ways_of_saying_goodbye_close(text: str) -> None:
    assert lx.is_closing(text)


# -- the second review: what must not change ------------------------------------------------------------------
@pytest.mark.parametrize("text", ["yes friday I think", "yes friday, wait", "yes flu and covid too"])
def test_a_yes_that_says_the_day_again_but_holds_back_or_asks_more_does_not_confirm(text: str) -> None:
    with talking("vaxclinic", PACKS / "vaxclinic") as agent:
        agent.handle("s", "I need to move my jab appointment VX-1001 to friday at 2pm")
        assert tools_of(agent.handle("s", text)) == []


@pytest.mark.parametrize("text", ["is she eligible for the flu jab, she's 6 months old", "am i eligible? I'm 28 weeks pregnant",
                                  "I'm 10 minutes away, am I eligible for the flu jab?"])
def test_a_number_with_another_unit_after_im_is_no_age(text: str) -> None:
    with talking("vaxclinic", PACKS / "vaxclinic") as agent:
        agent.handle("s", text)
        assert all(s.value is None for f in agent.load("s").stack.flows for n, s in f.slots.items() if n == "age")


@pytest.mark.parametrize("said", ["B4 6NH", "can i get 4 my usual foam packs", "a flight b4 friday"])
def test_postcodes_counts_and_b4_are_not_rewritten(said: str) -> None:
    assert lx.plain_words(said) == said


@pytest.mark.parametrize("text", ["wait, check my balance first, maybe 200", "hold on, let me check my balance first, 300 maybe"])
def test_an_errand_asked_for_first_still_turns_away(text: str) -> None:
    with talking("banking", PACKS / "banking") as agent:
        agent.handle("s", "transfer money from savings to checking")
        result = agent.handle("s", text)
        assert "Confirm" not in result.reply


def test_how_much_does_it_cost_pays_nothing() -> None:
    assert "pay" not in lx.SYNONYMS.get(lx.stem("cost"), ()) and lx.SYNONYMS[lx.stem("pay")] == ("cost",)
