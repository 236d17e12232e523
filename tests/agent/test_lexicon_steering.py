"""Steering phrases of the lexicon: putting a task off, and a no that lets it go."""

from __future__ import annotations

import pytest

from dialstack.agent import lexicon as lx


@pytest.mark.parametrize("said", ["actually forget it, I'll call back later", "drop it, I'll sort it out later",
                                  "never mind, I'll book it myself", "forget it - we'll try another time"])
def test_a_stop_word_then_putting_it_off_is_a_plain_stop(said: str) -> None:
    assert lx.CANCEL.match(said)


@pytest.mark.parametrize("said", ["forget it, I'll take the 5pm one", "never mind, book it for Friday"])
def test_a_stop_word_then_a_new_request_is_not_a_plain_stop(said: str) -> None:
    assert not lx.CANCEL.match(said)


@pytest.mark.parametrize("said", ["hmm no, leave it, never mind", "no, forget it", "no, don't bother"])
def test_a_no_that_lets_the_task_go_is_a_no_and_says_so(said: str) -> None:
    assert lx.DENY.match(said) and lx.LET_IT_BE.search(said)


@pytest.mark.parametrize("said", ["no", "no thanks", "no, not right now"])
def test_a_plain_no_lets_nothing_go(said: str) -> None:
    assert lx.DENY.match(said) and not lx.LET_IT_BE.search(said)


@pytest.mark.parametrize("said", ["scrap the transfer", "ditch the rental", "abandon the booking"])
def test_scrap_ditch_and_abandon_are_cancel_verbs_that_name_a_task(said: str) -> None:
    assert lx.CANCEL_VERB.search(said) and lx.ABANDON.match(said)


def test_a_request_opens_after_its_fillers() -> None:
    assert lx.opener("hmm, actually cancel it") == "cancel"
    assert lx.opener("well I'd like to book a table") == "book"


@pytest.mark.parametrize("said", ["yes pls", "ok thx", "sure plz"])
def test_texting_abbreviations_still_say_yes(said: str) -> None:
    assert lx.AFFIRM.match(said)


def test_asking_back_what_was_said_asks_the_status() -> None:
    assert lx.STATUS.search("what was the time again?") and lx.STATUS.search("remind me what I picked")
    assert not lx.STATUS.search("what time do you open?")


def test_instead_replaces_the_task_unless_it_comes_first() -> None:
    assert lx.INSTEAD.search("actually no, cancel it instead")
    assert not lx.INSTEAD.search("check my booking instead, first")


@pytest.mark.parametrize("said", ["I don't mind", "no problem", "that's fine", "why not"])
def test_not_objecting_is_a_yes_not_a_no(said: str) -> None:
    assert lx.AFFIRM.match(said) and not lx.DENY.match(said)


def test_a_greeting_alone_is_told_from_a_greeting_with_a_request() -> None:
    assert lx.GREETING.match("hello there!") and lx.GREETING.match("Good morning")
    assert not lx.GREETING.match("hi, I need a refill") and not lx.GREETING.match("thanks")


def test_of_it_points_back_at_a_value_but_plain_it_does_not() -> None:
    assert lx.OF_IT.search("move 100 of it to checking") and lx.OF_IT.search("take 50 out of that one")
    assert not lx.OF_IT.search("book it for Friday")


@pytest.mark.parametrize("said", ["scrap that, I'll ring back", "forget it, I'll call you back", "drop it, we'll come back to it"])
def test_a_stop_word_then_calling_back_is_a_plain_stop(said: str) -> None:
    assert lx.CANCEL.match(said)


@pytest.mark.parametrize("said", ["oh wait, first can you cancel AP-1003?", "any chance you could help me sort out a flight?",
                                  "actually could you check BK-12345?"])
def test_a_request_after_a_filler_is_a_request_not_a_question(said: str) -> None:
    assert lx.REQUEST_ANYWHERE.search(said)


@pytest.mark.parametrize("said", ["ok go on then", "go on", "yes, go on"])
def test_go_on_says_yes(said: str) -> None:
    assert lx.AFFIRM.match(said)


@pytest.mark.parametrize("said", ["ugh mondays, am I right", "meh", "sigh, long week"])
def test_a_grumble_is_small_talk(said: str) -> None:
    assert lx.SMALL_TALK.match(said)


@pytest.mark.parametrize(("said", "asks"), [("do you fly to Honolulu?", True), ("hmm, do you have flights out of Vancouver?", True),
                                           ("does your airline go to Lima?", True), ("do you know my booking?", False),
                                           ("can you book a flight to Lima?", False)])
def test_whether_the_service_covers_something_is_a_service_question(said: str, asks: bool) -> None:
    assert bool(lx.SERVICE_QUESTION.match(said)) is asks


@pytest.mark.parametrize(("said", "takes"), [("perfect, I'll take that one", True), ("let's go with the cheapest one", True),
                                            ("we'll take it", True), ("I'll take a look", False), ("take me to Paris", False)])
def test_taking_what_a_look_up_showed_is_choosing_it(said: str, takes: bool) -> None:
    assert bool(lx.TAKES_IT.search(said)) is takes


@pytest.mark.parametrize(("said", "rest"), [("not quite, the name's wrong", "the name's wrong"), ("nope", ""),
                                           ("hmm no, the date", "the date"), ("that's wrong, it's Tuesday", "it's Tuesday")])
def test_a_no_may_go_on_to_say_what_is_wrong(said: str, rest: str) -> None:
    lead = lx.NO_LEAD.match(said)
    assert lead is not None and lead["rest"] == rest


@pytest.mark.parametrize("said", ["ok yes thats fine", "yes please do", "yes please, let's finish that"])
def test_everyday_yeses_say_yes(said: str) -> None:
    assert lx.AFFIRM.match(said)


@pytest.mark.parametrize("said", ["no, let's drop that one", "nope, scrap it", "no, keep it actually"])
def test_a_no_that_drops_the_task_lets_it_go(said: str) -> None:
    assert lx.DENY.match(said) and lx.LET_IT_BE.search(said)


@pytest.mark.parametrize(("said", "asks"), [("just browsing - what are the fares like from Miami", True),
                                           ("have I got anything booked", True), ("ok, how much is it", True),
                                           ("book it, what a day", False), ("ok, can you book it", False)])
def test_a_question_may_come_after_a_lead_in(said: str, asks: bool) -> None:
    assert lx.is_question(said) is asks


@pytest.mark.parametrize("said", ["same thing but friday", "same again on the 5th", "the same but at 7"])
def test_the_same_task_again_with_another_value_is_an_ellipsis(said: str) -> None:
    assert lx.ELLIPSIS.match(said)


@pytest.mark.parametrize(("said", "value"), [("I said Dallas but I meant Denver", "Dallas"), ("not Paris", "Paris")])
def test_a_value_taken_back_is_negated(said: str, value: str) -> None:
    assert lx.NEGATED_BEFORE.search(said[: said.index(value)])


@pytest.mark.parametrize("said", ["yes, go ahead and book it", "yes please, book that", "yes that'd be great"])
def test_a_yes_that_goes_on_to_say_do_it_is_a_yes(said: str) -> None:
    assert lx.AFFIRM.match(said)


@pytest.mark.parametrize("said", ["and a return on the 28th", "ok and the way back on the 3rd"])
def test_the_way_back_asks_the_last_task_again(said: str) -> None:
    assert lx.ELLIPSIS.match(said)


@pytest.mark.parametrize("said", ["actually I'm good, thanks anyway", "we're all set, thank you", "I'm fine for now"])
def test_being_fine_without_more_is_a_closing(said: str) -> None:
    assert lx.is_closing(said)


@pytest.mark.parametrize("said", ["no thanks, I'll sort it out later, bye", "nah I'm done for today"])
def test_putting_it_off_or_being_done_is_a_closing(said: str) -> None:
    assert lx.is_closing(said)


@pytest.mark.parametrize("said", ["oh never mind then", "ah forget it, my wife will call you"])
def test_a_stop_word_with_a_trailing_then_or_someone_calling_back_is_a_plain_stop(said: str) -> None:
    assert lx.CANCEL.match(said)


@pytest.mark.parametrize("said", ["hmm can we do the 16th instead?", "actually can we do 11 instead of 10?"])
def test_can_we_after_a_filler_is_a_request(said: str) -> None:
    assert lx.REQUEST_ANYWHERE.search(said)


def test_a_tasks_verb_after_a_yes_word_is_no_plain_yes() -> None:
    # (whether 'yes please, move it' confirms depends on the task read back: the understanding decides,
    # see test_nlu_session12; the words alone never confirm, so 'yes, cancel it' cannot book)
    assert not lx.AFFIRM.match("great, please cancel it") and not lx.AFFIRM.match("yes please, move it")


@pytest.mark.parametrize(("said", "done"), [("could u check if I have anything booked", "booked"),
                                           ("what have I got booked at the moment?", "booked"),
                                           ("I already reserved it", "reserved"), ("book me a flight", None)])
def test_a_thing_already_done_is_no_request_to_do_it(said: str, done: str | None) -> None:
    m = lx.ALREADY_DONE.search(said)
    assert (m["done"] if m else None) == done


@pytest.mark.parametrize("said", ["is Sydney somewhere you fly?", "is Lima a place you go to?"])
def test_whether_a_place_is_somewhere_the_service_goes_is_a_service_question(said: str) -> None:
    assert lx.SERVICE_QUESTION.match(said)


@pytest.mark.parametrize(("said", "agrees"), [("that sounds good to me", True), ("yes that all looks right", True),
                                             ("ok that sounds good, thanks", True), ("that looks wrong", False)])
def test_agreeing_in_ones_own_words_answers_shall_i_go_ahead(said: str, agrees: bool) -> None:
    assert bool(lx.AGREES.match(said)) is agrees


@pytest.mark.parametrize("said", ["no no, leave it as it is", "ahh scrap that"])
def test_a_doubled_no_or_a_long_ah_still_lets_the_task_go(said: str) -> None:
    assert lx.LET_IT_BE.search(said) and (lx.DENY.match(said) or lx.CANCEL.match(said))


@pytest.mark.parametrize(("said", "asks"), [("is Melbourne on your route map?", True), ("is Nice on the list?", True),
                                           ("is my name on the list?", False), ("is it on sale?", False)])
def test_whether_a_place_is_on_the_services_map_is_a_service_question(said: str, asks: bool) -> None:
    assert bool(lx.SERVICE_QUESTION.match(said)) is asks


@pytest.mark.parametrize(("said", "turns_away"), [("one moment - which appointments are under Maria Lopez?", True),
                                                 ("just a minute, what's on my list", True),
                                                 ("I'll do it in a minute", False), ("a moment ago I said Boston", False),
                                                 ("I'll be a minute late", False)])
def test_asking_for_a_moment_turns_away_from_the_task(said: str, turns_away: bool) -> None:
    assert bool(lx.SHIFT.search(said)) is turns_away


@pytest.mark.parametrize(("said", "corrects"), [("oh wait, I'm leaving from Boston, not Chicago", True),
                                               ("the window seat, not the aisle", True), ("not now", False),
                                               ("book Boston to Chicago, not sure of the date yet, maybe Friday", False),
                                               ("a table for two, not too late", False)])
def test_a_value_then_not_the_old_one_is_a_correction(said: str, corrects: bool) -> None:
    assert bool(lx.CORRECTION.search(said)) is corrects


@pytest.mark.parametrize(("said", "asks"), [("my daughter has a fever, can a children's doctor see her tomorrow?", True),
                                           ("could one of your nurses call me back?", True),
                                           ("is the children's doctor in today?", False)])
def test_whether_someone_can_see_or_call_the_user_is_a_request(said: str, asks: bool) -> None:
    assert bool(lx.REQUEST_ANYWHERE.search(said)) is asks


@pytest.mark.parametrize(("said", "verbs"), [("hi, I can't make my physio appointment on friday, can you cancel it", {"cancel"}),
                                            ("please just move it to monday", {"move"}), ("I want to book a table", {"book"}),
                                            ("my flight is on friday", set())])
def test_the_verb_a_request_asks_for_is_found_anywhere_in_the_turn(said: str, verbs: set[str]) -> None:
    assert lx.requested_verbs(said) == verbs


@pytest.mark.parametrize(("said", "asks"), [("My husband and I would like to know whether our reservation is confirmed", True),
                                           ("I was wondering if you fly to Lima", True), ("I'd like to book a flight", False)])
def test_a_question_asked_in_a_statement_is_a_question(said: str, asks: bool) -> None:
    assert lx.is_question(said) is asks


def test_wanting_to_know_is_no_request_but_wanting_a_thing_is() -> None:
    assert not lx.REQUEST_ANYWHERE.search("we would like to know whether it is confirmed")
    assert lx.REQUEST_ANYWHERE.search("we would like a table for two")


@pytest.mark.parametrize(("said", "asks"), [("can you let me know when new york to london gets under 500 bucks", True),
                                           ("can you let me know what time it leaves", False)])
def test_let_me_know_when_something_happens_asks_for_an_alert(said: str, asks: bool) -> None:
    assert bool(lx.REQUEST_ANYWHERE.search(said)) is asks


@pytest.mark.parametrize("said", ["yes thats right", "thats fine", "yes lets carry on", "actually no, leave it"])
def test_yes_and_no_are_read_without_their_apostrophes_or_with_a_lead_in(said: str) -> None:
    assert lx.AFFIRM.match(said) or lx.DENY.match(said)


@pytest.mark.parametrize(("said", "asks"), [("my daughter has a fever, can she see a doctor today??", True),
                                           ("can he get an appointment on friday", True), ("will they have parking?", False)])
def test_asking_whether_someone_can_see_a_doctor_is_a_request(said: str, asks: bool) -> None:
    assert bool(lx.REQUEST_ANYWHERE.search(said)) is asks


@pytest.mark.parametrize(("said", "owned"), [("what flights have i got coming up?", True), ("which appointments do we have", True),
                                            ("do i have to pay for bags", False), ("what rooms have you got", False)])
def test_asking_what_one_has_got_is_asking_about_ones_own_things(said: str, owned: bool) -> None:
    assert bool(lx.OWNED.search(said)) is owned


@pytest.mark.parametrize(("said", "asks"), [("if i cancel my flight do i get my money back", True),
                                           ("if it rains can i change my flight", True), ("if possible book me on the 5th", False),
                                           ("if you can i would like the 9am", False), ("i'm not sure what time, maybe 7", False)])
def test_a_condition_then_a_question_is_a_question(said: str, asks: bool) -> None:
    assert lx.is_question(said) is asks


@pytest.mark.parametrize("said", ["ugh nvm forget it", "nvm", "eh scrap that, ill do it later"])
def test_short_and_sloppy_stops_are_stops(said: str) -> None:
    assert lx.CANCEL.match(said)


@pytest.mark.parametrize(("said", "closes"), [("actually nvm, thanks anyway bye", True),
                                             ("hmm let me talk to my wife first, I'll come back to this another time", True),
                                             ("let me check with my boss, i'll get back to you", True), ("I'll fly tomorrow", False)])
def test_putting_it_off_after_what_must_happen_first_is_a_closing_but_a_plan_is_not(said: str, closes: bool) -> None:
    assert lx.is_closing(said) is closes


@pytest.mark.parametrize(("said", "asks"), [("hmm how long is the wait at old town right now? maybe i'll just walk in", True),
                                           ("can my friends drive the car too? it's RNT-48213", False)])
def test_a_question_first_then_a_remark_is_a_question(said: str, asks: bool) -> None:
    assert lx.is_question(said) is asks


@pytest.mark.parametrize("said", ["yes ok", "Yes, that is perfect, thank you so much.", "yes ta"])
def test_a_yes_with_its_everyday_tails_is_a_yes(said: str) -> None:
    assert lx.AFFIRM.match(said)


@pytest.mark.parametrize(("said", "unsure"), [("hmm not sure about the date yet, i'll get back to you", True), ("i dont know", True),
                                             ("not sure, maybe friday", False)])
def test_not_knowing_yet_is_no_answer_and_no_request(said: str, unsure: bool) -> None:
    assert bool(lx.UNSURE.match(said)) is unsure


@pytest.mark.parametrize(("said", "tentative"), [("tomorrow after school, like 4pm?", True), ("Paris?", True),
                                                ("do you fly to Paris?", False), ("if i cancel do i get my money back?", False),
                                                ("what about friday?", False)])
def test_an_answer_said_with_a_question_mark_is_told_from_a_question(said: str, tentative: bool) -> None:
    assert lx.is_tentative(said) is tentative


def test_checking_with_someone_and_getting_back_later_puts_the_task_off() -> None:
    assert lx.is_closing("Let me check with my boss about the dates and get back to you later.")
    assert not lx.is_closing("get back to me with the price")


@pytest.mark.parametrize(("said", "stops"), [("hmm i dont have the number on me. nevermind", True),
                                            ("I want to book Paris. never mind", True), ("never mind, book it for Friday", False)])
def test_a_last_sentence_that_lets_it_go_is_a_stop(said: str, stops: bool) -> None:
    assert bool(lx.CANCEL.match(said)) is stops


def test_a_no_after_two_fillers_is_still_a_no() -> None:
    assert lx.DENY.match("hmm actually no, keep it")


@pytest.mark.parametrize(("said", "agrees"), [
    ("yes thats it", True), ("That works out for me.", True), ("Yes, confirmed to proceed", True),
    ("that sounds right", True), ("I'd like to think about it", False), ("I'd like another time", False),
    ("I like the other one better", False), ("Perfect timing actually I need to go", False),
    ("maybe later", False), ("yes but not friday", False), ("ok, no", False), ("ok that's all", False),
    ("yes, book it for friday", False), ("I need it", False), ("nice weather", False),
])
def test_a_yes_in_ones_own_words_agrees_unless_it_holds_back_or_says_more(said: str, agrees: bool) -> None:
    assert lx.agrees(said) is agrees


@pytest.mark.parametrize(("said", "denied"), [
    ("no wait, 3pm not 2pm", ["2pm"]), ("Robert Hayes, not Robert Hays", ["Robert Hays"]),
    ("make it friday instead of thursday", ["thursday"]), ("not sure yet", []), ("not too late please", []),
])
def test_a_value_said_only_to_rule_it_out_is_found_to_the_end_of_its_clause(said: str, denied: list[str]) -> None:
    assert [said[a:b] for a, b in lx.denied_spans(said)] == denied


@pytest.mark.parametrize("said", ["no leave it, ill call back later", "nah nvm", "never mind, I'll ring back"])
def test_letting_it_go_then_putting_it_off_is_a_closing_or_a_stop(said: str) -> None:
    assert lx.is_closing(said) or lx.CANCEL.match(said)


@pytest.mark.parametrize("said", ["actually scrap that, leave it as it is", "forget it, keep it", "never mind, leave it be"])
def test_a_stop_word_then_letting_it_be_is_a_plain_stop(said: str) -> None:
    assert lx.CANCEL.match(said)


@pytest.mark.parametrize(("said", "requests"), [
    ("quick q before i say yes - whats the fee if i need to change it later?", False),
    ("what do I bring when we want to check in?", False),
    ("whats the fee? i need to change my flight", True),
])
def test_wanting_inside_a_condition_is_no_request(said: str, requests: bool) -> None:
    assert bool(lx.REQUEST_ANYWHERE.search(said)) is requests


def test_whens_without_its_apostrophe_asks() -> None:
    assert lx.is_question("whens my flight BK-12345")


@pytest.mark.parametrize("said", ["oh btw is there parking near you? i'll be driving", "hang on, before that whats booked for maya"])
def test_a_question_after_an_aside_or_a_turn_away_asks(said: str) -> None:
    assert lx.is_question(said)


@pytest.mark.parametrize("said", ["thx bye", "perfect thank u so much, thats all", "no thx"])
def test_texted_thanks_close_the_talk(said: str) -> None:
    assert lx.is_closing(said)


@pytest.mark.parametrize("said", ["hmm actually forget it, i'll ring back once i know my shifts", "nvm dont book it"])
def test_a_stop_word_then_when_one_will_call_back_or_what_not_to_do_stops(said: str) -> None:
    assert lx.CANCEL.match(said)


def test_wanting_with_an_adverb_between_is_still_a_request() -> None:
    assert lx.REQUEST_ANYWHERE.search("oh and while i remember, i also need to cancel KB-4823")


@pytest.mark.parametrize("said", ["yh thats rite", "ya sure"])
def test_texted_yeses_agree(said: str) -> None:
    assert lx.agrees(said)


@pytest.mark.parametrize("said", ["yesss", "yeahhh go for it"])
def test_a_drawn_out_yes_agrees(said: str) -> None:
    assert lx.agrees(said)


@pytest.mark.parametrize(("said", "done"), [("i've never booked a flight online before", False),
                                            ("i have not booked yet", False), ("what have I booked", True)])
def test_what_was_never_done_is_not_done(said: str, done: bool) -> None:
    assert bool(lx.ALREADY_DONE.search(said)) is done


@pytest.mark.parametrize("said", ["no, forget it, i'll sort it out another time", "don't bother, I'll call back later"])
def test_letting_it_go_and_putting_it_off_closes(said: str) -> None:
    assert lx.is_closing(said)


def test_a_question_after_lemme_see_asks() -> None:
    assert lx.is_question("hmm lemme see whats flying boston to chicago on dec 28 first")
