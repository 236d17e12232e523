"""Everyday readings fixed in the eighteenth session: a short report of what is wrong ('wifi is dead') is the report's
details, a request that only names the work ('a quote for some work on my other car') is not; a wish with its values
books when the booking finds its own flight; Singapore, Chinese, northern English and dictated wording ('can book or
not?', 'Aye, champion', 'for of us'); a number of another thing is no length in hours."""

from __future__ import annotations

import pytest

from dialstack.agent import lexicon as lx

from .nlu_support import PACKS, slots_of, stack_names as stack_of, talking, tools_of

GARAGE = PACKS / "motgarage"
BROADBAND = PACKS / "broadband"
LIBRARY = PACKS / "publiclibrary"
SALON = PACKS / "salon"


# -- what a report tells ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["wifi is dead. acct BB-118842", "the router keeps flashing red, BB-118842",
                                  "internet's gone again!! BB-118842"])
def test_a_thing_and_the_state_it_is_in_is_the_fault_reported(text: str) -> None:
    with talking("broadband", pack=BROADBAND) as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["report_fault"]
        assert slots_of(agent, "report_fault")["details"] == text


@pytest.mark.parametrize("text", ["I want to report a fault on BB-118842", "my account number is BB-118842, I have a fault"])
def test_a_request_to_report_or_who_one_is_tells_no_fault(text: str) -> None:
    with talking("broadband", pack=BROADBAND) as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["report_fault"]
        assert slots_of(agent, "report_fault").get("details") is None


def test_a_request_that_names_only_the_work_and_the_car_leaves_the_fault_to_be_asked() -> None:
    with talking("motgarage", pack=GARAGE) as agent:
        agent.handle("s", "ok. while I've got you, could I get a quote for some work on my other car as well")
        assert stack_of(agent) == ["report_fault"]
        assert slots_of(agent, "report_fault").get("description") is None
        result = agent.handle("s", "MA09 UXY")
        assert "problem" in result.reply


def test_a_request_that_says_what_is_wrong_keeps_it_as_the_fault() -> None:
    with talking("motgarage", pack=GARAGE) as agent:
        text = "could I get a quote, there's a horrible grinding noise when I brake"
        agent.handle("s", text)
        assert stack_of(agent) == ["report_fault"]
        assert slots_of(agent, "report_fault")["description"] == text


def test_a_story_of_who_did_what_is_the_report_though_its_verb_is_the_kind_of_problem() -> None:
    with talking("library", pack=LIBRARY) as agent:
        text = "my toddler ripped some pages in the gruffalo, so sorry!! i need to report it"
        result = agent.handle("s", text)
        assert slots_of(agent, "report_problem")["description"] == text
        assert "shall I go ahead" in result.reply and tools_of(result) == []


# -- several things said at once ----------------------------------------------------------------------------
def test_a_question_to_oneself_before_the_values_is_no_question_asked() -> None:
    with talking("travel") as agent:
        agent.handle("s", "hi I need to book a flight from Boston to - sorry, one sec")
        result = agent.handle("s", "sorry - kids - where was I. Chicago. Boston to Chicago")
        assert stack_of(agent) == ["book_flight"] and "date" in result.reply
        assert {"origin": "Boston", "destination": "Chicago"}.items() <= slots_of(agent, "book_flight").items()


def test_words_said_at_the_agent_that_ask_nothing_leave_the_request_alone() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I need a flight to Paris. And before you ask, from London. UGH.")
        assert stack_of(agent) == ["book_flight"]
        assert {"origin": "London", "destination": "Paris"}.items() <= slots_of(agent, "book_flight").items()
        result = agent.handle("s", "January 8. Happy now?")
        assert slots_of(agent, "book_flight")["date"] == "2027-01-08" and "go ahead" in result.reply


def test_a_look_up_of_another_booking_wanted_before_the_yes_leaves_the_change_its_own_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Re: BK-12345 - need to push to Dec 17. Client mtg moved.")
        result = agent.handle("s", "FYI also need status on BK-31337 before I confirm")
        assert tools_of(result) == ["get_booking"] and "Paris" in result.reply
        assert slots_of(agent, "modify_booking")["booking_ref"] == "BK-12345"
        agent.handle("s", "yes, back to the change")
        result = agent.handle("s", "go ahead")
        assert tools_of(result) == ["update_booking"] and "BK-12345" in result.reply


def test_a_side_question_beside_an_answer_is_answered_and_the_answer_kept() -> None:
    with talking("library", pack=LIBRARY) as agent:
        agent.handle("s", "hey can i book a room to study on wed 9th from 6pm")
        result = agent.handle("s", "just me so a small one. is there wifi in the rooms btw?")
        assert "LibraryGuest" in result.reply and stack_of(agent) == ["book_room"]
        assert slots_of(agent, "book_room").get("room_size") == "small"
        assert slots_of(agent, "book_room").get("hours") is None


# -- wishes and requests ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Need flt BOS to ORD Dec 15 pls, 1 pax. ASAP.",
                                  "FIVE of us need to get from New York to Los Angeles on Dec 21. Five. Not one, like last time.",
                                  "Need to get from Boston to Chicago on Christmas Eve if there's owt going"])
def test_a_wish_with_its_values_starts_the_booking_that_finds_its_own_flight(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == ["book_flight"] and "go ahead" in result.reply and tools_of(result) == []


@pytest.mark.parametrize("text", ["I want to see flights from Boston to Chicago on the 15th",
                                  "flights from boston to chicago on the 15th?"])
def test_a_wish_to_look_or_a_question_with_its_values_searches(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert tools_of(result) == ["search_flights"] and stack_of(agent) == []


def test_a_request_with_no_one_named_or_tagged_or_not_is_a_request() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Hi, can book flight from Boston to Chicago on 18 Dec morning or not?")
        assert stack_of(agent) == ["book_flight"] and "go ahead" in result.reply
        result = agent.handle("s", "Ok confirm plus chop, go ahead lah")
        assert tools_of(result) == ["search_flights", "create_booking"]


def test_an_order_tagged_can_is_the_order_and_yes_with_its_verb_does_it() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Send itinerary for BK-31337 to mei.ling@example.sg can?")
        assert stack_of(agent) == ["send_itinerary"] and "go ahead" in result.reply
        result = agent.handle("s", "Yes send already")
        assert tools_of(result) == ["send_itinerary"]


def test_tell_me_when_the_price_becomes_lower_sets_a_price_alert() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Can tell me when New York to Los Angeles price become lower than 200 dollar?")
        assert stack_of(agent) == ["price_alert"] and "200" in result.reply


@pytest.mark.parametrize("yes", ["Aye, champion, ta", "Aye, that's grand", "yes. obviously."])
def test_a_yes_in_northern_english_or_with_impatience_books_the_flight_read_back(yes: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from Boston to Chicago on December 18")
        result = agent.handle("s", yes)
        assert tools_of(result) == ["search_flights", "create_booking"]


def test_a_day_said_to_be_useless_is_the_day_given_up_not_a_second_change() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Where is my booking?? BK-12345. Is it even still on???")
        result = agent.handle("s", "Fine. Move it to the 18th then, the 15th is USELESS to me now.")
        assert stack_of(agent) == ["modify_booking"] and "go ahead" in result.reply
        assert slots_of(agent, "modify_booking") == {"booking_ref": "BK-12345", "new_date": "2026-12-18"}


@pytest.mark.parametrize("text", ["thx. will circle back on the rest next wk", "ok, will do it later"])
def test_putting_the_rest_off_without_saying_i_is_a_closing(text: str) -> None:
    assert lx.is_closing(text)


def test_a_dictated_for_meaning_four_counts_the_passengers() -> None:
    with talking("travel") as agent:
        agent.handle("s", "hey i need to book a flight from new york too los angeles")
        agent.handle("s", "december fifteenth and there will be for of us")
        assert slots_of(agent, "book_flight")["passengers"] == 4


@pytest.mark.parametrize(("text", "plain"), [("there will be for of us", "there will be four of us"),
                                             ("too people please", "two people please"),
                                             ("a ticket for my mum", "a ticket for my mum"),
                                             ("fly to Boston", "fly to Boston")])
def test_numbers_heard_as_their_homophones_are_read_as_numbers_only_where_nothing_else_fits(text: str, plain: str) -> None:
    assert lx.plain_words(text) == plain


def test_having_lost_track_of_ones_loans_lists_them_and_reports_nothing_lost() -> None:
    with talking("library", pack=LIBRARY) as agent:
        result = agent.handle("s", "Good morning. I'm afraid I've lost track of which books I have at home and when "
                                   "they need to go back.")
        assert stack_of(agent) == [] and tools_of(result) == ["list_loans"]


# -- numbers and options ------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["Hello, I want to make reservation of one room for study, for me and my friend, small "
                                  "size please.", "a small one on the 9th at 3pm"])
def test_a_number_of_another_thing_or_one_standing_for_a_thing_is_no_length(text: str) -> None:
    with talking("library", pack=LIBRARY) as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["book_room"] and slots_of(agent, "book_room").get("hours") is None


def test_a_time_offered_after_the_one_taken_is_the_time_and_no_length() -> None:
    with talking("library", pack=LIBRARY) as agent:
        agent.handle("s", "need a small room thursday at 11")
        agent.handle("s", "4 hours")
        result = agent.handle("s", "yes")
        assert "already booked" in result.reply
        result = agent.handle("s", "can we do 9:30 instead")
        assert slots_of(agent, "book_room") == {"room_size": "small", "when": "2026-12-03T09:30", "hours": 4}
        assert "go ahead" in result.reply


def test_an_option_said_between_the_day_and_the_time_is_still_read() -> None:
    with talking("salon", pack=SALON) as agent:
        agent.handle("s", "Well, I'd like a haircut on Friday morning with Jade, around ten")
        assert {"stylist": "Jade", "when": "2026-12-04T10:00"}.items() <= slots_of(agent, "book_appointment").items()


# -- round 66: voices, fat fingers, references --------------------------------------------------------------
DRIVING = PACKS / "drivingschool"
BIKES = PACKS / "bikeshop"


@pytest.mark.parametrize("yes", ["Yes ma'am, that's right", "Yes man, do it", "Yes, gwaan", "Affirm, book it",
                                 "Haan haan, kar do", "Haan, do the needful", "Haan", "Nah yeah, do it", "Yeah, chur bro",
                                 "yse go aheaf", "yse plesae", "yws", "Sure thing, go 'head", "Achha theek hai, haan book karo"])
def test_a_yes_in_many_voices_or_with_a_slip_of_the_finger_books_the_flight_read_back(yes: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from Boston to Chicago on December 18")
        result = agent.handle("s", yes)
        assert tools_of(result) == ["search_flights", "create_booking"]


@pytest.mark.parametrize("no", ["Nahi nahi, rehne do, keep it", "Yeah nah, keep it"])
def test_a_no_in_hindi_or_new_zealand_english_keeps_the_booking(no: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-31337")
        result = agent.handle("s", no)
        assert tools_of(result) == [] and stack_of(agent) == []


@pytest.mark.parametrize(("text", "plain"), [("kind of", "kind of"), ("yse go aheaf", "yes go ahead"),
                                             ("acutally nevr mind, forgett it", "actually never mind, forget it"),
                                             ("find a book", "find a book")])
def test_slips_of_the_finger_are_mended_only_where_they_make_a_yes_a_no_or_a_stop(text: str, plain: str) -> None:
    assert lx.mend_slips(text, lambda word: word == "find") == plain


def test_a_word_the_pack_uses_is_never_mended_into_a_yes() -> None:
    with talking("library", pack=PACKS / "library") as agent:
        result = agent.handle("s", "find a book")
        assert stack_of(agent) == ["find_book"] and tools_of(result) == []


@pytest.mark.parametrize(("said", "meant", "slipped"), [("yws", "yes", True), ("yse", "yes", True), ("yet", "yes", False),
                                                         ("nevr", "never", True), ("forgett", "forget", True),
                                                         ("mine", "mind", True), ("ok", "okay", False)])
def test_a_slip_of_the_finger_is_a_neighbouring_key_two_keys_swapped_or_one_pressed_twice_or_missed(
        said: str, meant: str, slipped: bool) -> None:
    assert lx.fat_finger(said, meant) is slipped


@pytest.mark.parametrize(("text", "passengers"), [
    ("Hey there y'all, I'm fixin' to book a flight for me and my two young'uns from Boston up to Chicago", 3),
    ("Mi an mi bredda dem, four a wi, need fi fly from New York to Los Angeles", 4),
    ("Hum 5 log hain, New York to Los Angeles on the 15th, book karo", 5)])
def test_a_party_counted_in_dialect_is_the_number_of_passengers(text: str, passengers: int) -> None:
    with talking("travel") as agent:
        agent.handle("s", text)
        assert stack_of(agent) == ["book_flight"] and slots_of(agent, "book_flight")["passengers"] == passengers


def test_the_pax_count_put_right_at_the_read_back_changes_the_passengers() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Book me Boston to Chicago tomorrow")
        result = agent.handle("s", "Pax count is 3 actually")
        assert slots_of(agent, "book_flight")["passengers"] == 3 and "go ahead" in result.reply


def test_people_put_on_the_flight_found_book_it_for_them() -> None:
    with talking("travel") as agent:
        agent.handle("s", "What's showing JFK to LAX on the 15th? Ideally the red-eye")
        result = agent.handle("s", "Cool, put 2 PAX on that one")
        assert stack_of(agent) == ["book_flight"] and "go ahead" in result.reply
        assert {"origin": "New York", "destination": "Los Angeles", "date": "2026-12-15", "passengers": 2}.items() \
            <= slots_of(agent, "book_flight").items()


@pytest.mark.parametrize("text", ["Scrub BK-31337, the trip's off", "scrap BK-31337"])
def test_a_stop_word_said_of_a_booking_by_its_reference_cancels_that_booking(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == ["cancel_booking"] and "BK-31337" in result.reply
        assert slots_of(agent, "cancel_booking")["booking_ref"] == "BK-31337"


@pytest.mark.parametrize("text", ["my reservation BK-31337", "I want to see my actual reservation, the BK-31337"])
def test_a_booking_named_by_its_reference_in_no_verb_of_changing_it_is_looked_up(text: str) -> None:
    with talking("travel") as agent:
        result = agent.handle("s", text)
        assert tools_of(result) == ["get_booking"] and stack_of(agent) == []


def test_a_reference_looked_up_in_plain_verbs_is_the_look_up_that_takes_it() -> None:
    with talking("bikeshop", pack=BIKES) as agent:
        result = agent.handle("s", "Can you look up JOB-4421 for me?")
        assert tools_of(result) == ["get_job"]


def test_a_hindi_change_request_moves_the_booking() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "Achha, mera booking BK-20481 hai, usko prepone karna hai to 24th December")
        assert slots_of(agent, "modify_booking") == {"booking_ref": "BK-20481", "new_date": "2026-12-24"}
        assert "go ahead" in result.reply


def test_holler_when_fares_drop_sets_a_price_alert() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Might could you keep an eye on fares from New York to London for me and holler if they drop "
                          "under $450?")
        assert stack_of(agent) == ["price_alert"]


def test_wanting_to_check_before_going_further_pauses_the_booking_for_the_check() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to book a flight")
        agent.handle("s", "Hold on now, before we go any further I reckon I oughta check on the booking I already got")
        assert stack_of(agent) == ["book_flight", "check_booking"]


def test_never_mind_the_whole_thing_cancels_the_booking() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Book me a seat from Boston to Chicago, would ya")
        agent.handle("s", "Aw, y'know what, never mind the whole thing, I'll just drive up there")
        assert stack_of(agent) == []


def test_a_remark_then_a_question_announced_is_answered() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to change my booking BK-20481")
        result = agent.handle("s", "omw to work rn 🚌 random q, do u guys fly to tokyo??")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == ["modify_booking"]


def test_a_jamaican_date_and_for_are_read() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Irie, den book mi from Boston to Chicago fi di 31st a December")
        assert slots_of(agent, "book_flight")["date"] == "2026-12-31"


# -- round 66: the packs ------------------------------------------------------------------------------------
def test_a_learner_named_after_my_son_and_a_pick_up_address_are_read_in_one_request() -> None:
    with talking("drivingschool", pack=DRIVING) as agent:
        result = agent.handle("s", "Can you book a 1 hour manual lesson with Dave on Thursday 10 December at 3pm for Leo "
                                   "Martin, pick up at 9 Cherry Tree Avenue")
        assert {"learner_name": "Leo Martin", "pickup_address": "9 Cherry Tree Avenue"}.items() \
            <= slots_of(agent, "book_lesson").items()
        assert "go ahead" in result.reply


def test_a_pick_up_at_a_named_place_on_a_street_keeps_both() -> None:
    with talking("drivingschool", pack=DRIVING) as agent:
        agent.handle("s", "Can I book a 1hr manual lesson with Tom on wed 9th dec, 7am start?")
        agent.handle("s", "Pick me up at the Royal Mail depot on Canal Street please, I'll be coming straight off shift")
        assert slots_of(agent, "book_lesson")["pickup_address"] == "the Royal Mail depot on Canal Street"


def test_same_time_with_a_new_day_after_a_refusal_keeps_the_time_refused() -> None:
    with talking("drivingschool", pack=DRIVING) as agent:
        for text in ("Can I get a 2 hour automatic lesson with Sandra on Sunday the 6th at 11am?", "14 Rowan Way",
                     "Priyanka Das", "yes"):
            agent.handle("s", text)
        result = agent.handle("s", "Monday then, same time")
        assert slots_of(agent, "book_lesson")["when"] == "2026-12-07T11:00" and "go ahead" in result.reply


def test_the_day_of_the_lesson_to_move_is_not_the_day_it_moves_to() -> None:
    with talking("drivingschool", pack=DRIVING) as agent:
        agent.handle("s", "I need to move my lesson next Tuesday")
        assert slots_of(agent, "move_lesson") == {}


def test_what_happens_if_is_a_question_about_the_rules() -> None:
    with talking("drivingschool", pack=DRIVING) as agent:
        result = agent.handle("s", "what happens if I have to pull out of a lesson last minute, do I lose my money?")
        assert tools_of(result) == ["answer_question"]


def test_not_booking_anything_after_a_reason_stops_the_booking() -> None:
    with talking("drivingschool", pack=DRIVING) as agent:
        agent.handle("s", "book a lesson for tomorrow at 5pm")
        agent.handle("s", "sorry, I've just realised I can't afford it till payday, so don't book anything")
        assert stack_of(agent) == []


@pytest.mark.parametrize(("text", "flow"), [("any chance of renting 2 medium bikes on the 23rd of december?", "hire_bike"),
                                            ("Can I bring my road bike in for a basic service next Tuesday?", "book_service"),
                                            ("could you give me a rough price for a repair?", "get_quote")])
def test_requests_put_as_questions_start_their_task(text: str, flow: str) -> None:
    with talking("bikeshop", pack=BIKES) as agent:
        result = agent.handle("s", text)
        assert stack_of(agent) == [flow] and tools_of(result) == []


def test_a_request_for_a_price_leaves_what_is_wrong_to_be_asked() -> None:
    with talking("bikeshop", pack=BIKES) as agent:
        result = agent.handle("s", "could you give me a rough price for a repair?")
        assert slots_of(agent, "get_quote").get("details") is None and "What needs fixing" in result.reply


def test_a_word_near_an_option_with_another_first_letter_is_no_misspelt_option() -> None:
    with talking("bikeshop", pack=BIKES) as agent:
        agent.handle("s", "I want to get my mountain bike serviced")
        assert slots_of(agent, "book_service") == {"bike_type": "mountain"}


def test_a_charge_for_cancelling_is_a_question_about_the_rules() -> None:
    with talking("bikeshop", pack=BIKES) as agent:
        agent.handle("s", "Can you cancel my service booking please, JOB-4422")
        result = agent.handle("s", "hang on, is there a charge for cancelling?")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == ["cancel_booking"]


def test_another_day_put_forward_after_ok_is_the_day() -> None:
    with talking("bikeshop", pack=BIKES) as agent:
        agent.handle("s", "Hi there! We are four persons visiting, we want to rent 4 large bikes on 12 December")
        agent.handle("s", "yes")
        agent.handle("s", "Ok, what about the 11th then?")
        assert slots_of(agent, "hire_bike")["hire_date"] == "2026-12-11"


def test_a_count_of_bicycles_in_the_singular_is_the_number_of_bikes() -> None:
    with talking("bikeshop", pack=BIKES) as agent:
        agent.handle("s", "Hello. I am from Spain. I want rent bicycle, three bicycle, for tomorrow please")
        assert slots_of(agent, "hire_bike")["number_of_bikes"] == 3


# -- round 67 -----------------------------------------------------------------------------------------------
CINEMA = PACKS / "cinema"
GROOMER = PACKS / "groomer"


@pytest.mark.parametrize("yes", ["Yup, go ahead, thanks a bunch", "Tak, yes, is good", "bet bet, lock it in", "yessir",
                                 "She says yes, thank you dear", "She says 'go ahead'", "ok im back, ya do it",
                                 "Do I have a choice? Yes, go ahead.", "What do you think? Yes."])
def test_a_yes_asked_back_typed_for_someone_or_in_slang_books_the_flight_read_back(yes: str) -> None:
    with talking("travel") as agent:
        agent.handle("s", "book a flight from Boston to Chicago on December 18")
        result = agent.handle("s", yes)
        assert tools_of(result) == ["search_flights", "create_booking"]


def test_thanks_a_million_is_thanks_and_no_number() -> None:
    with talking("travel") as agent:
        agent.handle("s", "set a check-in reminder for BK-31337, 48 hours before")
        result = agent.handle("s", "Perfect, yes please, thanks a million")
        assert tools_of(result) == ["schedule_checkin_reminder"]


def test_am_i_sure_asked_back_then_yes_cancels() -> None:
    with talking("travel") as agent:
        agent.handle("s", "cancel BK-31337")
        result = agent.handle("s", "Am I sure? Obviously I'm sure. Yes.")
        assert tools_of(result) == ["cancel_booking"]


def test_an_answer_behind_a_question_asked_back_is_the_answer() -> None:
    with talking("travel") as agent:
        agent.handle("s", "I want to book a flight")
        result = agent.handle("s", "Why do you need that? Fine, Boston.")
        assert slots_of(agent, "book_flight")["origin"] == "Boston" and "fly to" in result.reply


def test_brb_and_the_errand_asks_to_wait() -> None:
    with talking("travel") as agent:
        agent.handle("s", "move BK-20481 to jan 2")
        result = agent.handle("s", "brb gotta grab my charger")
        assert "take your time" in result.reply.lower() and stack_of(agent) == ["modify_booking"]


def test_what_someone_else_wants_to_know_of_a_booking_is_looked_up() -> None:
    with talking("travel") as agent:
        result = agent.handle("s", "My nan wants to know if her flight is still on. The number on her paper says BK-31337")
        assert tools_of(result) == ["get_booking"]


def test_a_booking_wanted_for_someone_else_typed_for_them_books() -> None:
    with talking("travel") as agent:
        agent.handle("s", "Hello, this is her grandson typing. Grandma says she wants to book a flight to Chicago to see my aunt")
        assert stack_of(agent) == ["book_flight"] and slots_of(agent, "book_flight")["destination"] == "Chicago"


@pytest.mark.parametrize("answer", ["aisle seats, one of us has a dodgy knee", "back row pls, the kids like being up high",
                                    "Near of the aisle, if it is possible"])
def test_a_preference_asked_for_is_kept_whole_with_its_reasons(answer: str) -> None:
    with talking("cinema", pack=CINEMA) as agent:
        agent.handle("s", "Hi, 2 adults for Harbour Lights on 18/12 at 3pm please, confirmation to pat.hughes@example.co.uk")
        result = agent.handle("s", answer)
        assert slots_of(agent, "book_tickets")["seat_preference"] == answer and "go ahead" in result.reply
        assert slots_of(agent, "book_tickets")["adults"] == 2


def test_adults_and_children_said_together_go_to_their_own_counts() -> None:
    with talking("cinema", pack=CINEMA) as agent:
        agent.handle("s", "book Paper Moons for tmrw 6pm")
        agent.handle("s", "ok 2 adults and 2 children then")
        assert {"adults": 2, "children": 2}.items() <= slots_of(agent, "book_tickets").items()


def test_whether_a_child_of_an_age_may_watch_is_a_question_about_the_rules() -> None:
    with talking("cinema", pack=CINEMA) as agent:
        result = agent.handle("s", "can my 13 year old watch the long quiet?")
        assert tools_of(result) == ["answer_faq"] and stack_of(agent) == []


def test_same_time_takes_the_time_of_a_moment_a_look_up_returned_under_any_name() -> None:
    with talking("cinema", pack=CINEMA) as agent:
        agent.handle("s", "whats the status of my booking cn-5003")
        result = agent.handle("s", "can we move it to the 12th, same time?")
        assert slots_of(agent, "change_showing")["new_showing"] == "2026-12-12T19:30" and "go ahead" in result.reply


@pytest.mark.parametrize(("text", "when"), [
    ("would thursday the 10th at 11am work? she's always in a better mood in the mornings", "2026-12-10T11:00"),
    ("Would Wednesday the ninth of December be convenient, at half past ten in the morning?", "2026-12-09T10:30")])
def test_a_moment_put_forward_as_would_it_work_is_the_answer(text: str, when: str) -> None:
    with talking("groomer", pack=GROOMER) as agent:
        agent.handle("s", "I'd like to book a full groom for my medium cockapoo")
        agent.handle("s", text)
        assert slots_of(agent, "book_groom")["when"] == when


def test_i_have_to_cancel_asks_for_the_cancellation() -> None:
    with talking("groomer", pack=GROOMER) as agent:
        agent.handle("s", "I think I have to cancel Bear's bath on the 17th")
        assert stack_of(agent) == ["cancel_groom"]


def test_a_name_ends_with_its_sentence() -> None:
    with talking("groomer", pack=GROOMER) as agent:
        agent.handle("s", "Can you book my dog in for a full groom on the 12th at 10am? He's a big boy, a golden retriever "
                          "called Max. Put it under Leo Fischer")
        assert slots_of(agent, "book_groom")["dog_name"] == "Max"
