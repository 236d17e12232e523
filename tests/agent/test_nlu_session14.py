"""Everyday readings fixed in the fourteenth session: something added to a thing held changes it; a statement
that gives the task in progress a value answers it."""

from __future__ import annotations

import pytest

from .nlu_support import PACKS, slots_of, stack_names as stack_of, talking, tools_of


# -- adding someone to a booking held is a change to it ---------------------------------------------------
@pytest.mark.parametrize("text", [
    "My grandson would like to come along, so I should like to add him to my existing reservation, if possible.",
    "can you add my wife to booking BK-20481",
    "I want to add a passenger to my reservation",
    "could you take my son off booking BK-20481 please, he can't come",
])
def test_adding_someone_to_a_booking_held_starts_a_change_of_it(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == ["modify_booking"] and tools_of(result) in ([], ["get_booking"])


def test_the_number_added_is_not_taken_for_the_new_total() -> None:
    with talking("travel") as agent:
        agent.handle("s", "add 2 passengers to BK-20481")
        assert stack_of(agent) == ["modify_booking"]
        assert "passengers" not in slots_of(agent, "modify_booking")


def test_a_new_booking_for_two_passengers_still_counts_them() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book me a flight for 2 passengers")
        assert slots_of(agent, "book_flight")["passengers"] == 2


# -- a statement giving the task in progress a value answers it ---------------------------------------------
def test_a_statement_of_how_many_travel_answers_the_change_in_progress() -> None:
    with talking("travel") as agent:
        agent.handle("s", "can you add my wife to booking BK-20481")
        result = agent.handle("s", "There will be two of us travelling now, myself and my wife.")
        assert stack_of(agent) == ["modify_booking"]
        assert slots_of(agent, "modify_booking")["passengers"] == 2 and "go ahead" in result.reply


# -- a look-up still found by its own words ------------------------------------------------------------------
def test_a_travel_advisory_is_still_found_by_its_own_words() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "is it safe to travel to paris right now")
        assert tools_of(result) == ["fetch_travel_advisory"]  # (no advisory source here: the flow asks again)


# -- an order to set up another task mid-task ---------------------------------------------------------------
def test_an_order_naming_another_task_mid_booking_starts_it_and_leaves_the_booking_alone() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book flight from boston")
        result = agent.handle("s", "also set alert: london to paris under $150")
        assert stack_of(agent) == ["book_flight", "price_alert"] and "go ahead" in result.reply
        assert slots_of(agent, "book_flight")["origin"] == "Boston"


# -- a passive request ---------------------------------------------------------------------------------------
def test_could_it_be_moved_after_a_check_asks_to_change_the_booking_checked() -> None:
    with talking("travel") as agent:
        agent.handle("s", "could you look up BK-20481 for me")
        result = agent.handle("s", "Thank you. Could it be moved to the 30th instead?")
        assert stack_of(agent) == ["modify_booking"] and tools_of(result) == []
        assert slots_of(agent, "modify_booking") == {"booking_ref": "BK-20481", "new_date": "2026-12-30"}


# -- dropping a task and naming the paused one to go back to -----------------------------------------------
def test_forgetting_the_change_and_naming_the_paused_booking_goes_straight_back_to_it() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want book flight from Boston")
        agent.handle("s", "Wait, first I want change my booking BK-12345")
        result = agent.handle("s", "No, forget the change, go back to the new flight")
        assert stack_of(agent) == ["book_flight"] and "fly to" in result.reply


# -- counting people and asking what others may do ----------------------------------------------------------
@pytest.mark.parametrize(("text", "count"), [("for myself and my two boys", 3), ("me and my two girls", 3),
                                             ("my little girl and me", 2)])
def test_boys_and_girls_are_counted_as_people(text: str, count: int) -> None:
    from dialstack.state.text import people_listed
    assert [f.value for f in people_listed(text)] == [count]


def test_whether_the_children_can_sit_with_a_parent_is_answered_at_the_read_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Can I book flights for myself and my two boys, Boston to Chicago on the 23rd?")
        result = agent.handle("s", "Oh, will the boys be able to sit next to me on the plane?")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == ["book_flight"]
        assert "seated together" in result.reply and "3 passengers" in result.reply


# -- clinic packs ----------------------------------------------------------------------------------------------
CONTINENCE, LUNGS = PACKS / "continence", PACKS / "lungclinic"


def test_a_bare_hour_offered_instead_of_the_one_given_repairs_the_time_at_the_name_question() -> None:
    with talking("continence", CONTINENCE) as agent:
        agent.handle("s", "need to book a nurse review")
        agent.handle("s", "wednesday 9th at 10")
        agent.handle("s", "oh wait, can it be 11 instead of 10")
        assert slots_of(agent, "book_appointment")["when"] == "2026-12-09T11:00"


def test_a_yes_that_names_the_one_then_the_tasks_own_verb_confirms_it() -> None:
    with talking("continence", CONTINENCE) as agent:
        agent.handle("s", "cancel CC-1002")
        result = agent.handle("s", "yep thats the one, cancel it")
        assert tools_of(result) == ["cancel_appointment"] and stack_of(agent) == []


@pytest.mark.parametrize("text", ["can i rearange CC-1001 pls, thursday is no good anymore",
                                  "can I move CC-1001, thursday doesn't work for me"])
def test_a_day_said_to_be_no_good_is_ruled_out_not_taken(text: str) -> None:
    with talking("continence", CONTINENCE) as agent:
        result = agent.handle("s", text)
        assert "new_when" not in slots_of(agent, "reschedule_appointment") and "instead" in result.reply


def test_is_my_appointment_still_happening_checks_ones_own_appointment() -> None:
    with talking("continence", CONTINENCE) as agent:
        result = agent.handle("s", "is my nurse review still happening?")
        assert stack_of(agent) == ["check_appointment"] and "reference" in result.reply


def test_where_do_i_go_right_after_a_list_is_answered_by_the_side_task() -> None:
    with talking("continence", CONTINENCE) as agent:
        agent.handle("s", "can u tell me all my upcoming clinic dates")
        result = agent.handle("s", "and where do i go for them?")
        assert tools_of(result) == ["answer_question"] and "Level 2" in result.reply


@pytest.mark.parametrize("text", ["hello, first time using this, what does this chat thing actually do?",
                                  "erm im new to this, what are you able to do for me"])
def test_asking_what_the_assistant_does_after_a_word_about_oneself_is_help(text: str) -> None:
    with talking("continence", CONTINENCE) as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and tools_of(result) == ["describe_services"]


def test_a_question_then_a_remark_at_a_read_back_is_answered_and_the_read_back_asked_again() -> None:
    with talking("continence", CONTINENCE) as agent:
        agent.handle("s", "could you deliver me some pull-ups, 5 packs")
        agent.handle("s", "31 Beech Avenue, Stockport SK3 8HJ")
        result = agent.handle("s", "will it come in plain packaging? my neighbours are nosy lol")
        assert tools_of(result) == ["answer_question"] and "shall I go ahead" in result.reply
        assert tools_of(agent.handle("s", "yep go ahed")) == ["place_order"]


def test_dont_worry_ill_phone_up_lets_the_look_up_go() -> None:
    with talking("lungclinic", LUNGS) as agent:
        agent.handle("s", "can u check my appointment for me")
        agent.handle("s", "ugh i cant find the letter with the number on, dont worry ill phone up")
        assert stack_of(agent) == []


def test_that_same_day_takes_the_day_of_the_appointment_just_checked() -> None:
    with talking("lungclinic", LUNGS) as agent:
        agent.handle("s", "can I book an asthma nurse review")
        agent.handle("s", "actually hang on, let me check when my breathing test is first, it's LF-2001")
        agent.handle("s", "yes please")
        result = agent.handle("s", "that same day at 10:30 would be handy")
        assert stack_of(agent) == ["book_test"] and slots_of(agent, "book_test")["when"] == "2026-12-08T10:30"
        assert "name" in result.reply


def test_not_wanting_the_task_in_progress_beside_a_request_for_another_replaces_it() -> None:
    with talking("lungclinic", LUNGS) as agent:
        agent.handle("s", "can I move LF-2001 please")
        agent.handle("s", "actually I've changed my mind, I don't want to move it, please cancel the appointment altogether")
        assert stack_of(agent) == ["cancel_test"]


# -- round 55: travel ----------------------------------------------------------------------------------------------
def test_never_mind_with_a_laugh_after_a_remark_drops_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "i wanna fly to miami for winter break")
        agent.handle("s", "new york")
        agent.handle("s", "ugh actually my mom said no. never mind lol")
        assert stack_of(agent) == []


def test_what_can_u_even_do_is_help() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "wait what can u even do")
        assert "didn't understand" not in result.reply and stack_of(agent) == []


def test_actually_no_keep_it_with_a_reason_keeps_the_booking_at_are_you_sure() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Cancel BK-31337, the Paris trip is off.")
        result = agent.handle("s", "Actually no, keep it - the client meeting is back on.")
        assert stack_of(agent) == [] and tools_of(result) == [] and "kept" in result.reply


@pytest.mark.parametrize("text", ["Yes, finish the booking.", "YES OBVIOUSLY"])
def test_a_yes_with_words_of_going_on_resumes_the_task_offered(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston")
        agent.handle("s", "wait, first cancel BK-20481")
        agent.handle("s", "yes")
        result = agent.handle("s", text)
        assert stack_of(agent) == ["book_flight"] and "fly to" in result.reply


def test_rather_x_than_y_replaces_the_value_it_names() -> None:
    with talking("travel") as agent:
        agent.handle("s", "2 of us from boston to miami on december 20th")
        agent.handle("s", "wait, my husband says he'd rather do los angeles than miami")
        assert slots_of(agent, "book_flight")["origin"] == "Boston"
        assert slots_of(agent, "book_flight")["destination"] == "Los Angeles"


def test_could_you_tell_us_when_a_route_drops_under_a_price_sets_an_alert() -> None:
    with talking("travel") as agent:
        agent.handle("s", "My fiance thinks Paris is way too pricey right now. "
                          "Could you tell us when New York to Paris drops under $500?")
        assert stack_of(agent) == ["price_alert"]


def test_a_question_to_oneself_then_the_answer_fills_the_slot_asked() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I'd like to book a flight please.")
        agent.handle("s", "From New York. Gosh, it snowed here yesterday, my cat was not impressed.")
        assert "date" not in slots_of(agent, "book_flight")
        agent.handle("s", "Ha, anyway, where was I. Los Angeles!")
        assert slots_of(agent, "book_flight")["destination"] == "Los Angeles"


def test_could_you_send_me_the_itinerary_sends_it_rather_than_checking_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Right, now could you send me the itinerary for BK-31337?")
        assert stack_of(agent) == ["send_itinerary"]


def test_a_plan_carries_its_party_and_reads_a_later_legs_day_after_the_first() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "My wife and I are planning our honeymoon! We'd like to fly New York to Paris on "
                                   "January 10th, and then on to Rome on the 17th.")
        assert "January 17, 2027" in result.reply and result.reply.count("2 passengers") == 2
        assert "passengers 2" not in result.reply


def test_where_the_one_visited_lives_is_where_the_flight_goes() -> None:
    with talking("travel") as agent:
        agent.handle("s", "She lives in Chicago. I need a flight out of Boston on the 19th")
        assert stack_of(agent) == ["book_flight"]
        assert slots_of(agent, "book_flight")["origin"] == "Boston"
        assert slots_of(agent, "book_flight")["destination"] == "Chicago"


# -- round 55: packs -----------------------------------------------------------------------------------------------
CARDIO, HOMEOT = PACKS / "cardiodx", PACKS / "homeot"


def test_a_token_with_digits_is_no_patients_name() -> None:
    with talking("cardiodx", CARDIO) as agent:
        agent.handle("s", "i need to get one of those 24hr heart monitors fitted")
        assert "patient_name" not in slots_of(agent, "book_test")


def test_lets_not_do_this_now_as_a_last_sentence_drops_the_booking() -> None:
    with talking("cardiodx", CARDIO) as agent:
        agent.handle("s", "I want to book a heart scan")
        agent.handle("s", "oh bother, I've just realised I don't have my referral letter with me. let's not do this now")
        assert stack_of(agent) == []


def test_the_original_date_is_fine_at_a_read_back_drops_the_move() -> None:
    with talking("cardiodx", CARDIO) as agent:
        for text in ("i need to reschedule my appointment", "it's cd-1005", "wednesday 16th at 9:30"):
            agent.handle("s", text)
        result = agent.handle("s", "no sorry, I've changed my mind, the original date is fine after all")
        assert stack_of(agent) == [] and tools_of(result) == []


def test_a_practice_named_in_capitals_keeps_its_task_word_and_a_new_one_replaces_it_at_the_read_back() -> None:
    with talking("cardiodx", CARDIO) as agent:
        agent.handle("s", "my GP wants to see the echo results, can you send them over? CD-1004")
        assert "Parkside Surgery" in agent.handle("s", "Parkside Surgery on Elm Road").reply
        result = agent.handle("s", "no, wrong surgery, it should be Brookfield Health Centre")
        assert slots_of(agent, "send_results")["gp_practice"] == "Brookfield Health Centre" and tools_of(result) == []


def test_hes_called_gives_the_name_and_cancels_nothing() -> None:
    with talking("homeot", HOMEOT) as agent:
        agent.handle("s", "hi we need two grab rails fitted by the back door for my husband, he keeps loosing his balance")
        assert slots_of(agent, "order_equipment")["quantity"] == 2
        agent.handle("s", "he's called Tom Hughes")
        assert stack_of(agent) == ["order_equipment"] and slots_of(agent, "order_equipment")["patient_name"] == "Tom Hughes"


def test_a_story_told_to_whats_the_problem_is_the_answer() -> None:
    with talking("homeot", HOMEOT) as agent:
        agent.handle("s", "hello, dad's gone into a care home so we dont need his bed lever any more, "
                          "could someone come and collect it?")
        result = agent.handle("s", "nothing wrong with it, he just doesn't need it now")
        assert "shall I go ahead" in result.reply


# -- round 56 ------------------------------------------------------------------------------------------------------
def test_please_dont_cancel_it_after_a_reason_keeps_the_booking_at_are_you_sure() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-12345")
        result = agent.handle("s", "Oh wait, Harold has just reminded me we're still going after all. Please don't cancel it.")
        assert stack_of(agent) == [] and tools_of(result) == [] and "kept" in result.reply


def test_lets_not_book_anything_today_drops_the_booking_at_the_read_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 22 for 2")
        result = agent.handle("s", "Oh dear, on second thought, let's not book anything today. "
                                   "We'll talk it over with the children first.")
        assert stack_of(agent) == [] and tools_of(result) == []


@pytest.mark.parametrize("text", ["sí, perfecto", "yes dale, book it", "Yes pleas"])
def test_a_yes_in_spanish_or_misspelt_confirms(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        assert tools_of(agent.handle("s", text)) == ["search_flights", "create_booking"]


def test_a_plain_no_with_sorry_at_the_read_back_asks_what_to_change() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 16")
        assert "change" in agent.handle("s", "No, sorry.").reply


def test_show_me_everything_ive_got_booked_lists_the_bookings() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "hey! can you show me everything I've got booked? todos mis viajes porfa")
        assert tools_of(result) == ["list_bookings"]


def test_is_a_city_one_of_your_destinations_is_asked_of_the_faq() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "is Barcelona one of your destinations? I'm doing my erasmus there")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == []


def test_thanks_for_checking_after_a_check_checks_nothing_again() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Is BK-20481 definitely confirmed?")
        assert tools_of(agent.handle("s", "Oh thank goodness. Thank you so much for checking.")) == []


def test_a_later_sentence_that_orders_the_booking_books_with_the_details_said() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Need 1 pax JFK to LAX on 12/18, aisle. Book it.")
        assert stack_of(agent) == ["book_flight"] and tools_of(result) == []
        assert slots_of(agent, "book_flight")["seat"] == "aisle"
    with talking("travel") as agent:
        agent.handle("s", "Show me what flights you've got from New York to Los Angeles on the 22nd.")
        agent.handle("s", "Cheapest one, I suppose. Book it.")
        assert stack_of(agent) == ["book_flight"] and slots_of(agent, "book_flight")["date"] == "2026-12-22"


@pytest.mark.parametrize(("text", "origin", "destination"), [
    ("Actually, Chicago in December, how original of me. Make it Los Angeles instead.", "Boston", "Los Angeles"),
    ("chicago? no, denver instead", "Boston", "Denver"),
    ("from boston to miami instead", "Boston", "Miami"),
])
def test_a_value_said_again_then_another_instead_replaces_it(text: str, origin: str, destination: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        agent.handle("s", text)
        assert (slots_of(agent, "book_flight")["origin"], slots_of(agent, "book_flight")["destination"]) == (origin, destination)


INFUSION, MACULA = PACKS / "infusion_unit", PACKS / "maculaclinic"


def test_can_one_of_the_nurses_give_us_a_call_asks_for_the_callback() -> None:
    with talking("infusion_unit", INFUSION) as agent:
        agent.handle("s", "hi my husband had his rituximab yesterday and hes come out in a rash and feels sick. "
                          "can one of the nurses give us a call?")
        assert stack_of(agent) == ["nurse_callback"]


@pytest.mark.parametrize("text", ["ok, ill ask my nephew to take me then. thank you, thats all",
                                  "cheers, that puts my mind at rest. bye now"])
def test_a_last_sentence_that_closes_after_a_remark_says_goodbye(text: str) -> None:
    with talking("maculaclinic", MACULA) as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == [] and "Take care" in result.reply


def test_a_report_told_in_full_takes_its_details_from_the_message() -> None:
    with talking("maculaclinic", MACULA) as agent:
        result = agent.handle("s", "my left eye has gone all wavy and there's a dark smudge in the middle since I woke up")
        assert tools_of(result) == ["report_vision_change"] and stack_of(agent) == []


def test_whether_she_may_come_in_the_room_is_asked_of_the_faq_not_a_transport() -> None:
    with talking("maculaclinic", MACULA) as agent:
        result = agent.handle("s", "oh one thing, can she come in the room with me when they do it?")
        assert stack_of(agent) == [] and tools_of(result) == ["answer_clinic_question"]


# -- from the session's review ---------------------------------------------------------------------------------------
def test_where_someone_works_is_no_place_to_leave_from() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston")
        agent.handle("s", "my daughter works in chicago but I want to go to miami")
        assert slots_of(agent, "book_flight")["origin"] == "Boston"
        assert slots_of(agent, "book_flight")["destination"] == "Miami"


def test_passengers_added_to_a_new_booking_are_counted_and_a_reference_after_add_is_kept() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight for me and add 2 passengers")
        assert slots_of(agent, "book_flight")["passengers"] == 2
    with talking("travel") as agent:
        result = agent.handle("s", "add BK-20481 to my calendar")
        assert "reference" not in result.reply


def test_actually_no_cancel_another_one_instead_asks_about_that_one() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Cancel BK-31337, the Paris trip is off.")
        result = agent.handle("s", "actually no, cancel BK-20481 instead")
        assert "BK-20481" in result.reply and stack_of(agent) == ["cancel_booking"] and tools_of(result) == []


def test_the_original_time_is_better_then_a_new_time_changes_the_move() -> None:
    with talking("continence", CONTINENCE) as agent:
        for text in ("move CC-1002", "friday at 2pm"):
            agent.handle("s", text)
        agent.handle("s", "no, the original time is better, make it 9am")
        assert slots_of(agent, "reschedule_appointment")["new_when"] == "2026-12-04T09:00"


def test_adding_someone_to_an_appointment_no_change_counts_moves_nothing() -> None:
    with talking("menoclinic", PACKS / "menoclinic") as agent:
        agent.handle("s", "add my partner to MC-1001")
        assert not any("move" in name or "reschedule" in name for name in stack_of(agent))


def test_whether_the_kids_may_fly_alone_is_asked_and_counts_nobody() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Can I book flights for myself and my two boys, Boston to Chicago on the 23rd?")
        result = agent.handle("s", "will the kids be able to fly alone?")
        assert tools_of(result) == ["answer_faq"] and slots_of(agent, "book_flight")["passengers"] == 3


def test_could_you_send_me_the_flights_looks_them_up() -> None:
    with talking("travel") as agent:
        agent.handle("s", "could you send me the flights from boston to denver?")
        assert "send_itinerary" not in stack_of(agent)


# -- round 57 ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["yep, sweet as", "yep bonza", "sweet as, go ahead"])
def test_an_australian_yes_confirms(text: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        assert tools_of(agent.handle("s", text)) == ["search_flights", "create_booking"]


def test_a_day_put_against_the_day_it_replaces_changes_the_date_at_the_read_back() -> None:
    with talking("travel") as agent:
        agent.handle("s", "flight. boston to chicago. dec 14")
        agent.handle("s", "no sorry 15th not 14th")
        assert slots_of(agent, "book_flight")["date"] == "2026-12-15"


def test_a_pause_then_a_new_count_at_the_read_back_changes_the_count() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book new york to los angeles dec 18 for 3 of us")
        agent.handle("s", "oh hang on, me brother wants in too, so 4 of us all up")
        assert stack_of(agent) == ["book_flight"] and slots_of(agent, "book_flight")["passengers"] == 4


def test_a_formal_no_at_the_read_back_asks_what_to_change() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from new york to miami on dec 20")
        assert "change" in agent.handle("s", "No, I am afraid that is not quite right.").reply


def test_texted_what_asks_and_searches() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "wat flites are their from boston to chigago on desember 15")
        assert tools_of(result) == ["search_flights"] and stack_of(agent) == []


def test_adults_and_a_kid_side_by_side_are_counted_together() -> None:
    from dialstack.state.text import people_listed
    assert [f.value for f in people_listed("need flights. 2 adults 1 kid. boston to denver")] == [3]
    assert [f.value for f in people_listed("me and my 2 children")] == [3]


def test_a_formal_letter_that_puts_it_off_lets_the_booking_go() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Good morning. I should like to arrange a flight to Tokyo.")
        agent.handle("s", "On reflection, I shall consult my husband first and write again another time. Yours faithfully.")
        assert stack_of(agent) == []


def test_scratches_is_no_cancel_in_an_answer() -> None:
    with talking("dermacare", PACKS / "dermacare") as agent:
        agent.handle("s", "my son has a mole that's changed, can I send you photos?")
        agent.handle("s", "it appeared about a month ago and bleeds when he scratches it")
        assert "cancel_appointment" not in stack_of(agent)


def test_asking_what_a_child_has_had_checks_the_record() -> None:
    with talking("schoolvax", PACKS / "schoolvax") as agent:
        agent.handle("s", "can u check what jabs my daughter has actually had? i've lost her red book")
        assert stack_of(agent) == ["vaccine_history"]


def test_we_wont_bother_lets_the_consent_go_and_names_no_child() -> None:
    with talking("schoolvax", PACKS / "schoolvax") as agent:
        agent.handle("s", "i'd like to sign my twins up for the nasal flu thing")
        agent.handle("s", "right, in that case we won't bother, thanks")
        assert stack_of(agent) == []


# -- from the second review ---------------------------------------------------------------------------------------
def test_dont_cancel_it_yet_with_a_question_answers_and_keeps_asking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-20481")
        result = agent.handle("s", "don't cancel it yet, what's the refund policy?")
        assert stack_of(agent) == ["cancel_booking"] and "answer_faq" in tools_of(result)


def test_please_dont_cancel_it_alone_keeps_the_booking_in_those_words() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-20481")
        assert "kept" in agent.handle("s", "Please don't cancel it.").reply


def test_hold_on_then_an_order_to_set_up_an_alert_starts_the_alert() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want book flight from Boston")
        agent.handle("s", "hold on, set an alert for boston to miami under $200")
        assert stack_of(agent) == ["book_flight", "price_alert"]
        assert "destination" not in slots_of(agent, "book_flight")


def test_wait_then_a_question_or_an_order_is_no_pause_before_an_answer() -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from boston to chicago on dec 15")
        result = agent.handle("s", "hmm wait dont book anything yet, just show me the flights dallas to houston on dec 12")
        assert tools_of(result) == ["search_flights"]
