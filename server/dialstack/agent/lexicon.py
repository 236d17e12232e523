"""Domain-independent English cues for System-1 understanding.

Nothing here names a flow, a slot or a domain: these are the words people use to say
yes, no, stop, go back, or to ask a side question, in any task-oriented conversation.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Sequence
from functools import lru_cache

import snowballstemmer

from ..state.dates import MONTHS, WEEKDAYS
from ..state.text import KIN, words_to_number

STOPWORDS = frozenset(
    """
    a an the i im i'm me my mine to of for and or is are am be been it its it's this that these those
    please would like want wants wanted wnat watn wanna need needs needed ned require requires can could you your yours u ur do does did what which who whom with on in at
    by from some any let lets let's just now so up will we us our there here get got have has had
    should shall may might must go going gonna also too very really about into out over as if then than
    when where why whether how all one after ok okay yes no hi hello hey thanks thank chance again
    not don't dont won't wont can't cant isn't doesn't didn't
    """.split()
)

# (a task's verb after the yes, 'yes, cancel it', is a yes only to that task's read-back: the agent's
# understanding knows which task that is, these patterns do not)
_YES = (r"yes+|yse|yeah+|yep+|yup+|ya|yea+|ye|yeh+|yah|yh|aye|sure|ok|okay|k|kk|alright|all right|of course|absolutely|definitely|certainly|"
        r"grand(?: so)?|go on so|"  # (Irish: 'Grand so, go ahead', 'Go on so')
        r"correct|right|indeed|affirmative|acknowledged|proceed|confirmed|roger|please do|go ahead|go ahed|go ahaed|go aheed|do it|go for it|sounds good|sounds great|"
        r"that'?s right|that is right|that'?s correct|perfect|great|lovely|excellent|let'?s do it|let'?s do that|"
        r"let'?s go|go on|carry on|keep going|continue|let'?s continue|let'?s carry on|let'?s keep going|let'?s finish(?: it)?|"
        r"finish it|book it|yes please|sure thing|please|pls|plz|y|"
        r"s[ií]|claro|dale|vale|perfecto|de acuerdo|"  # ('sí, perfecto', 'yes dale, book it': a yes in Spanish)
        r"sweet as|bonza|ripper|too easy|no worries|no dramas?|"  # ('yep, sweet as', 'yep bonza', 'yep no dramas')
        r"lekker|sharp sharp|ja|yebo|"  # ('Lekker, yes please', 'Sharp sharp, yes book it': South African)
        r"champion|that'?s (?:grand|champion|smashing|belting|mint|sound|canny|tidy|ace)|smashing|sound|"  # ('Aye, champion, ta')
        r"confirm plus chop|(?:ok|can) lah|can can|"  # ('Ok confirm plus chop, go ahead lah': Singapore English)
        r"haa+n?|han ji|haan ji|ji haan|ji|bilkul|theek hai|thik hai|chalo|kar do|kardo|"  # ('Haan haan, kar do': Hindi)
        r"yes (?:man|mon)|yeah (?:man|mon)|gwaan|"  # ('Yes man, do it', 'Yes, gwaan': Jamaican English)
        r"affirm|roger that|wilco|"  # ('Affirm, book it': radio talk)
        r"tak|bet|bet bet|yessir|yessum|yes sir|ye+s+ir|"  # ('Tak, yes, is good': Polish; 'bet bet, lock it in'; 'yessir')
        r"oya|no wahala|"  # ('Oya go ahead', 'No wahala, go ahead': Nigerian English)
        r"spot on|bang on|dead on|lgtm|looks good to me|"  # ('spot on mate', 'lgtm, book it')
        r"jawohl|genau|alles klar|good as gold|work away|fire away|that is correct|grand job|good job|nice one|"  # ('Jawohl, please book it', 'yep good as gold')
        r"ebi so|oui|da|d'?accord|voil[aà]|"  # ('Ebi so, go ahead': Ghanaian; 'Oui', 'voilà': French; 'Da, book': Russian)
        r"(?:it|that)(?: is|'s) (?:good|fine|ok|okay|perfect) for (?:me|us)|"  # ('It is good for me, voilà')
        r"sige|oo|opo|"  # ('sige po', 'oo, sige': Tagalog)
        r"approved|(?:please |kindly )?action (?:it|this|that)|"  # ('Approved, please action.': office English)
        r"(?:book|lock|pencil) (?:it|that|them) in|"  # ('too easy, book it in', 'lock it in')
        r"(?:i )?(?:don'?t|do not) mind(?: at all)?|no problem|not a problem|why not|fine by me|that'?s fine|fine|"
        # ('I am quite certain. Please cancel it.' to 'Are you sure ...?')
        r"(?:i'?m|i am|we'?re|we are) (?:quite |absolutely |totally |very |completely |100% )?(?:sure|certain|positive)|"
        r"(?:that'?s|that is|thats) (?:write|rite)")
_YES_TAIL = (r"yes|yeah|yep|please|pleas|plese|pleese|pleeze|pleaze|thanks|thank you|ta|cheers|why not|go ahead|"
             r"s[ií]|dale|vale|perfecto|claro|gracias|porfa|por favor|sweet as|bonza|ripper|too easy|no worries|no dramas?|go ahed|"
             r"lekker|sharp sharp|abeg|biko|oya|no wahala|(?:send|book|do|cancel|change|move) am|"  # ('Sharp sharp, send am')
             r"po|sige|na|oo|ebi so|proper|oui|da|d'?accord|voil[aà]|"  # ('Yes oo', 'Right, proper', 'Oui, yes')
             # ('Yeah sorted, do it'; not 'great, sorted' alone, which books nothing)
             r"sorted(?=[\s,.!-]+(?:do|book|send|go ahead|lock|cancel|confirm))|"
             r"you can (?:reserve|book|go ahead|proceed|send(?: it)?|do it|confirm)|"  # ('Voilà, it is perfect, you can reserve')
             r"sadly|unfortunately|regrettably|i'?m afraid|"  # ('yes, sadly' to 'cancel it?')
             # ('aye, gaun yersel', 'aye, fire it ower': go ahead, send it, in Scots)
             r"(?:gaun|go on|go) yersel[f]?|fire (?:it|that|them) (?:ower|over|across|through)|"
             r"sure look|right so|work away|fire away|good as gold|she'?s right|jawohl|genau|righto|right-o|"  # ('yeah righto')
             r"(?:please |kindly )?action(?: it| this| that| the \w+)?(?: as well| too)?|approved|"  # ('Confirmed, please action.')
             r"omg|lol|lmao|fr|ngl|for real|tbh|"  # ('yes omg', 'yes lol')
             r"in (?:every|all) (?:particulars?|respects?|details?)|"  # ('Correct in every particular. Proceed.')
             # ('yep, charge it to my card': a purchase agreed, and how it is paid)
             r"(?:charge|bill) (?:it|that|me)(?: to (?:my|the) (?:card|account))?|put (?:it|that) on (?:my|the) (?:card|account)|"
             r"champion|that'?s (?:grand|champion|smashing|belting|mint|sound|canny|tidy|ace)|smashing|love|pet|duck|"
             r"lah|leh|lor|liao|already|confirm plus chop|"
             r"haa+n?|ji|kar do|kardo|bhej do|bhejo|karo|do the needful|please do the needful|"  # ('Haan bhej do': send it)
             r"go on ahead|go '?head|go right ahead|gwaan|sen(?:d)? it|is good|is ok|is correct|bet|tak|"
             r"thanks a (?:bunch|million|ton|heap|lot)|(?:thank you|thanks) (?:kindly|dear|so much)|"
             r"sorry (?:for|about) (?:the|that|this|my) \w+|"  # ('Yes please, sorry for the detour')
             r"ma'?am|maam|sir|mate|bro|bruv|man|mon|boss|dude|buddy|pal|hun|dear|y'?all|"  # ('Yes ma'am')
             r"go ahaed|do it|go for it|sure|on ye go|crack on|"
             # ('Yep chur', 'Yeah sweet', 'yes corect', 'yes please, go ahead, fingers crossed')
             r"chur|sweet|correct|corect|fingers crossed|dead on|spot on|book|(?:thanks|thank you) very much|grand|"
             r"let'?s (?:do it|do that|go|continue|"
             r"keep going|carry on|finish it)|carry on|keep going|continue|that'?s right|that is right|sounds good|"
             r"book it|perfect|great|lovely|absolutely|that works|works for me|thank you so much|pls|plz|thx|ty|"
             r"go on|then|that'?s fine|thats fine|fine|please do|do|let'?s finish (?:it|that)|finish (?:it|that)|"
             r"sorry|my bad|"  # 'yes sorry': an apology for the trouble, said with the yes
             r"finally|at last|about time|obviously|of course|duh|naturally|clearly|"  # ('yes, finally': impatience, said with the yes)
             r"proceed(?: with (?:the|my|it|that)(?: \w+)?)?|affirmative|acknowledged|confirmed|"  # ('Affirmative. Proceed.')
             # 'yes please, thank you for being so patient': thanks for the patience, said with the yes (not 'ok, thanks
             # for your help', a goodbye)
             r"(?:thanks|thank you|thank u|ty)(?: so much)? for (?:being so (?:patient|understanding)|your (?:patience|understanding))|"
             # 'Yes, that would be lovely, thank you dear': a judgment and a word of address
             r"(?:that|it|this)(?: would be|'d be) (?:lovely|great|perfect|wonderful|fine|good|"
             r"brilliant|grand|nice|ideal|super)|wonderful|ideal|dear|love|mate|hun|"
             # ('Yes, that is satisfactory.'; 'that is write', dictated; 'thats rite')
             r"(?:that'?s|that is|it'?s|it is|thats)(?: all)? (?:ok|okay|good|great|perfect|correct|right|write|rite|fine|lovely|"
             r"spot on|satisfactory|acceptable|in order)|"
             r"all good|works for me|thank you so much|thanks so much|thanks a lot|cheers|ok|okay|alright|sure|book (?:it|that)|go ahead and book (?:it|that)|"
             r"that(?:'d| would) be (?:great|perfect|lovely|good|fine|nice)|sounds (?:great|good|perfect)|"
             r"(?:do|book) (?:it|that|them)|do so|(?:book|lock|pencil) (?:me|her|him|us|them|it|that) in")
AFFIRM = re.compile(  # ('Oh wonderful, yes, go ahead dear.', 'back. yes book it': a word of delight or return before the yes)
    r"^\s*(?:(?:oh|well|um+|hmm+|ah|wonderful|brilliant|marvell?ous|splendid|fabulous|fab|(?:(?:ok|okay)[\s,]+)?(?:i'?m |im )?back|"
    r"obviously|of course|clearly|naturally|honestly|literally|whatever|omg|lol|proper|right|yo|sorted|sure|right so)[\s,!.]+)*"
    r"(" + _YES + r")\b(?:[\s,.!-]+(?:and\s+)?(?:" + _YES_TAIL + r")\b)*[\s.!,]*$",
    re.IGNORECASE,
)
# to 'shall I go ahead?' only: 'that sounds good to me', 'yes that all looks right' (after a
# look-up the same words judge what was found, and ask for nothing)
AGREES = re.compile(
    r"^\s*(?:(?:yes|yeah|yep|ok|okay|oh|well|hmm+)[\s,]+)*(?:that|it|everything)?\s*(?:all\s+)?"
    r"(?:(?:sounds|looks|seems|is)\s+(?:good|great|fine|perfect|right|correct|ok|okay)(?:\s+to me)?|sounds like a plan|works(?: for me)?)"
    r"(?:[\s,.!-]+(?:thanks|thank you|thanks so much|thank you so much|thanks a lot|cheers|please|go ahead|book it|do it))*"
    r"[\s.!]*$",
    re.IGNORECASE,
)
_NO_TAIL = (r"nahi+n?|nahin|rehne do|mat karo|thanks|thank you|thanks anyway|thanks a lot|thank you so much|thanks for (?:the|your|all the) (?:help|assistance)|"
            r"thank you for (?:the|your|all the) (?:help|assistance)|not (?:right )?now|not at (?:the|this) (?:moment|time)|"
            r"not yet|i don'?t|i do not|that'?s (?:ok|okay|fine)|that would be all|that will be all|(?:that's|that is|that was) (?:all|it|everything)(?: (?:i|we) (?:need|needed|"
            r"wanted|want))?(?: for (?:now|today))?|i'?m (?:good|fine|all set|done)|not now|maybe later|later|all good|"
            r"i'?m ok|we'?re good|sorry|i'?m afraid|i am afraid|(?:i'?m afraid |i am afraid )?(?:that'?s|that is) not (?:quite )?right|"
            r"not quite right|(?:i|we)(?: will|'ll)? still (?:go|travel|fly|need it|want it|come|keep it)|" + r"(?:i'?ll |we'?ll )?leave (?:it|that|the \w+)(?: (?:as it is|be))?(?: for (?:now|today|the moment))?|never ?mind|forget (?:it|about it)|don'?t bother|don'?t do it|"
            r"(?:i'?ll |we'?ll |i want to |i'd rather |let'?s )?keep it(?: actually)?|actually|"
            r"(?:let'?s )?(?:drop|scrap|skip) (?:it|that|this)(?: one)?|not any ?more|not any longer|don'?t worry(?: about (?:it|that))?|"
            # 'no thats ok, ill wait to hear from them', 'no, we'll wait for the call'
            r"(?:i'?ll|ill|we'?ll|i will|we will) (?:just )?wait(?: (?:to hear|for (?:them|her|him|it|that|a call|their call|"
            r"the call|now))(?: from (?:them|her|him|you))?)?|ta|cheers|"
            # 'nah not right now ta, ill sort it later'
            r"(?:i'?ll|ill|we'?ll|i will|we will|i shall|we shall) (?:[a-z']+ ){0,6}?(?:later(?: on)?|another (?:day|time)|some other (?:day|time))")
DENY = re.compile(
    r"^\s*(?:(?:oh|well|um+|hmm+|ah|no|actually|sorry|erm+|uh+|wait|hold on|on second thoughts?)[\s,]+)*(no o|no+|nope|nah|naw|not now|not right now|not at (?:the|this) (?:moment|time)|"
    r"nahi+n?|nahin|mat karo|rehne do|rehene do|"  # ('Nahi nahi, rehne do, keep it': Hindi)
    r"no thanks|no thank you|don'?t worry(?: about (?:it|that))?|don't|do not|n|negative|"
    r"not really|i don't think so|never ?mind|not yet|no,? (?:that's|that is) (?:all|fine|it)|not quite|not exactly)\b"
    r"(?:[\s,.!;-]+(?:" + _NO_TAIL + r")\b)*[\s.!,]*$",
    re.IGNORECASE,
)
# 'same for savings', 'what about Oakland?', 'and the joint one?': the task just done, asked again
# with another value
ELLIPSIS = re.compile(
    r"^\s*(?:(?:ok|okay|great|thanks|thank you|cool|now|then|also|hmm+|and)[\s,]+)*"
    r"(?:what about|how about|(?:and )?(?:the )?same(?: thing| again| one| search| deal)?,? (?:but |only |just )?(?:for|with|in|on|at)?"
    r"|and (?:for|in|at|on|with|the)|(?:and )?(?:a |the )?(?:return|way back)(?: flight| trip| one)?\b|"
    r"(?:and )?now (?:for|in|at|on|with))\b",
    re.IGNORECASE,
)
# 'any doctor is fine', 'whichever', 'no preference': no value, only that any would do (but
# 'anywhere in San Francisco is fine' names a place)
_NO_PLACE_WORDS = r"(?: (?!(?:in|at|near|around|from|to|on|by)\b)\w+){0,3}"
NO_PREFERENCE = re.compile(
    r"^\s*(?:(?:oh|well|um+|hmm+|honestly|really)[\s,]+)?(?:"
    r"(?:any|whichever|whatever)(?:one|body|thing|where|time)?" + _NO_PLACE_WORDS + r"(?: (?:is|are|will be|would be|works|will do))? "
    r"(?:fine|ok|okay|good|great|alright|all right)(?: (?:with|for|by) me)?"
    r"|(?:any|whichever|whatever)(?:one|body|thing|where|time)?" + _NO_PLACE_WORDS + r" (?:works|will do)(?: for me)?"
    r"|(?:it )?(?:doesn'?t|does not|don'?t) matter(?: to me)?|no (?:particular )?preference|whichever(?: one)?(?: is fine)?"
    r"|either(?: one)?(?: is fine| will do| works)?|i'?m (?:easy|flexible)(?: either way)?|surprise me|up to you"
    r"|i don'?t (?:care|have a preference)(?: which| what| who| where)?(?: \w+)?)"
    r"[\s,.!]*(?:(?:thanks|thank you|please)[\s.!]*)?$",
    re.IGNORECASE,
)
# "forget it, I'll call back later", "drop it, I'll sort it out later", "scrap that, I'll ring back":
# putting it off, after a stop word
LATER_TAIL = (r"(?:(?:(?:i|we|she|he|they|my [a-z]+)(?:'ll| will| can| could| shall)|ill|maybe i'?ll|let me|will)\s+"
              r"|(?=(?:get|come|call|ring|phone|check|circle)\s+back\b|write\s+(?:again|back)\b))(?:[a-z']+\s+){0,6}?"
              r"(?:later(?: on)?|another (?:time|day)|some other time|tomorrow|next (?:week|wk)|myself"
              # ('will circle back on the rest next wk')
              r"|(?:call|ring|phone|get|come|check|circle)(?: (?:you|u|in|it))? back(?: (?:to|on) (?:it|you|this|that|the rest))?"
              r"|(?:call|ring|phone) (?:you|u|instead)|(?:call|ring|phone)(?: (?:you|u|them|the \w+))? up"  # ('ill phone up')
              # ('I'll message again', 'I'll phone the clinic', 'I'll get back to you', "I'll sort it with the missus first")
              r"|(?:message|text|email|write|try|ask) (?:you |u )?again|(?:call|ring|phone) the \w+"
              r"|get back to (?:you|u)|sort it(?: out)? with (?:my|the|her|his|our) \w+(?: first)?"
              r"|sort it(?: out)?(?: myself)?)(?: then)?"
              # "... once i know my shifts": when, said after it
              r"(?:,?\s+(?:once|when|after|as soon as|if)\s+[^.!?,]+)?(?:[\s,.!]+(?:bye|goodbye|thanks))*")
# "I'll just drop it in to reception myself", 'we'll sort it out ourselves': the user will do it, not the assistant
DOES_IT_ONESELF = re.compile(r"^\s*(?:(?:i|we)(?:'ll| will)|ill|i'?m going to|we'?re going to|gonna)\b[^?]*"
                             r"\b(?:myself|ourselves|in person|on my own|by myself)\b[^?]*$", re.IGNORECASE)
# 'I'll do it later', 'maybe another time': putting it off, said alone
LATER_ALONE = re.compile(r"^\s*" + LATER_TAIL + r"[\s.!]*$", re.IGNORECASE)
# "no, leave it", "no, never mind": a no that lets the whole thing go, not only the question asked
LET_IT_BE = re.compile(
    r"\b(?:leave it(?! (?:at|on|with|to|as (?!(?:it is|is)\b)|for (?!now|the moment|today))\b)|never ?mind|nvm|forget (?:it|about it)|don'?t bother|don'?t do it|scrap (?:it|that)|drop (?:it|that)|"
    r"skip it|not anymore|keep it|don'?t worry about (?:it|that)|(?:we|i) won'?t bother|"
    r"(?:i'?ll|ill|we'?ll|i will|we will|(?:she|he|they)(?:'ll| will)) still (?:go|come|make it|attend|be there)|"
    r"(?:i'?m|i am|we'?re|we are|(?:she|he)'?s|(?:she|he) is|they'?re|they are) still (?:going|coming|flying|travell?ing)|"
    r"(?:i|we|she|he|they) still (?:needs?|wants?) (?:it|that|them|this)|no,? don'?t(?= *[,.!]|$)|"
    # ('no sorry, I've changed my mind, the original date is fine after all')
    r"(?:the )?(?:original|current|old|existing|first) (?:one|date|time|day|slot|appointment|booking|plan)"
    r"(?: is| was|'s)? (?:fine|ok|okay|good|better|best)|keep (?:the|my) (?:original|current|old|existing) \w+)\b",
    re.IGNORECASE,
)
# "actually forget it", "ok never mind": a filler before the stop word changes nothing
_FILLER_LEAD = (r"(?:(?:actually|oh|ok|okay|hmm+|um+|uh|ugh|eh|meh|argh|aw+|no|nah|nope|naw|well|you know what|on second thoughts?|"
                r"on reflection|having reflected|nvm|dear|finally|"
                r"ah+|sorry|oops|wait|hold on|hang on|it'?s (?:fine|ok|okay|alright)(?: (?:actually|now))?)[\s,.!-]+)*")
CANCEL = re.compile(
    r"^\s*" + _FILLER_LEAD + r"(?:please\s+)?(?:just\s+)?(?:cancel|stop|abort|quit|forget (?:about )?(?:it|that|this|the whole thing)|"
    r"(?:never ?mind|nvm)(?: (?:the whole thing|all of it|all that|the lot|it all))?|scratch (?:that|it|this)|"
    r"scrap (?:that|it|this|the whole thing)|drop (?:it|that|this)|"
    # ('Finally no, I renounce. Forget this demand.': letting go in words said literally from French)
    r"(?:i )?renounce|i give up|(?:forget|disregard) (?:this|that|the|my) (?:demand|request|order|reservation)|"
    r"(?:kindly |please )?disregard (?:it|that|this|my (?:last )?(?:message|request))|"  # ('kindly disregard my request altogether')
    r"cancel (?:it|that|this)|stop (?:it|that|this)|don'?t bother(?: with (?:it|that|this|any of (?:it|this|that)))?|"
    r"no longer needed|not needed any ?more|"
    r"(?:do not|don'?t|please do not) (?:proceed|go ahead)(?: with (?:it|that|this|the [a-z-]+(?: [a-z-]+)?))?|"  # ('do not proceed with the reminder')
    r"don'?t worry(?: about (?:it|that|this))?|leave it(?= for (?:now|the moment|today))"
    r"|(?:let'?s\s+)?(?:just\s+)?leave it (?:as (?:it is|is)|there|be)|skip (?:it|that|this))\b"
    r"(?:\s+(?:then|after all|anyway|anyways|for now|for the moment|for today|bruv|mate|man|bro|pal|dude|love|lol))?"
    r"(?:\s*[,;:.!-]+\s*" + LATER_TAIL
    # 'actually scrap that, leave it as it is', 'nvm dont book it': the stop word, then letting it be
    # ('eh, don't bother with any of it, I'll just take the train': doing it another way oneself)
    + r"|\s*[,;:.!-]+\s*(?:i'?ll|ill|i will|we'?ll|we will) just [a-z' ]+"
    # ("nvm he says he'll just do it himself lol": someone else does it)
    + r"|(?:\s*[,;:.!-]+\s*|\s+)(?:(?:he|she|they|my [a-z]+) (?:says?|said) )?(?:he|she|they|i|we)(?:'?ll| will) (?:just )?"
    r"[a-z' ]*?\b(?:himself|herself|themselves|myself|ourselves)\b[^?]*"
    # ("skip it, I'm not going to Japan after all", '..., we don't need it now'): the reason it is not wanted
    + r"|\s*[,;:.!-]+\s*(?:i'?m|im|i am|we'?re|we are) not (?:going|travell?ing|flying|coming)\b[^?]*"
    + r"|\s*[,;:.!-]+\s*(?:i|we) (?:don'?t|do not|no longer) need (?:it|one|that|them)\b[^?]*"
    # ('On reflection, do not proceed with the reminder; that will be all.': the stop, then a goodbye)
    + r"|\s*[,;:.!-]+\s*(?:and )?that(?:'s| is| will be| would be) (?:all|it|everything)(?: for (?:now|today))?"
    r"(?:[\s,]+(?:thanks|thank you))?"
    # ('Nah forget it bruv, can't be bothered')
    + r"|\s*[,;:.!-]+\s*(?:i'?m |i )?(?:can'?t|cannot|not) (?:be )?(?:bothered|arsed)\b[^?]*"
    + r"|(?:\s*[,;:.!-]+\s*|\s+)(?:just\s+)?(?:(?:leave|keep) (?:it|everything)(?: as (?:it is|is)| be)?"
    + r"|don'?t (?:bother|(?:[a-z]+ )?(?:it|that|anything))|ignore me))?[\s.!,]*$"
    # 'hmm i dont have the number on me. nevermind': a last sentence that lets it all go
    r"|^.*[.!;,-]\s*(?:(?:ok|okay|oh|ah|so|sorry|just|in that case|then)[\s,]+)*(?:never ?mind|nvm|forget it|forget about it|leave it"
    # ('ah go way, yer man just told me the conference is off. forget the flight', '... forget the new flight for now.')
    r"|forget (?:the|my|that|this) (?:new |whole )?(?:flight|booking|reservation|trip|appointment|order|alert|reminder|change)"
    r"(?: (?:for now|then|after all|altogether))?"
    r"|(?:forget|disregard) (?:this|that|the|my) (?:demand|request|order|reservation)(?: altogether| entirely)?"
    r"|(?:kindly |please )?disregard (?:it|that|this|my (?:last )?(?:message|request))(?: altogether| entirely)?"
    r"|(?:we|i) won'?t bother"  # ('right, in that case we won't bother, thanks')
    # ("sorry, I've just realised I can't afford it till payday, so don't book anything")
    r"|(?:please )?(?:don'?t|do not) (?:book|do|make|arrange|reserve|schedule|go ahead with) (?:anything|it|that|this)"
    r"|don'?t worry(?: about it)?|cancel this(?= for now| then|[\s.!]*$)"  # (not '..., cancel it': after a look-up, the thing looked up)
    # ("... Let's not carry on with this for now, thank you.")
    r"|let'?s not (?:carry on|continue|go ahead|go on|bother|do (?:this|it|that))(?: with (?:this|it|that))?"
    # ("actually I'm not sure I'm ready for this. can we stop? sorry")
    r"|(?:can|could|shall) we (?:just )?stop(?: (?:this|it|here|now|there))?\??|let'?s (?:just )?stop(?: (?:this|it|here|now|there))?)"
    r"(?:\s+(?:then|for now|for the moment|for today|as it is|as is|now|right now|today|yet))?(?:[\s,]+(?:thanks|thank you|cheers|ta))?"
    r"(?:[\s,.!]+(?:lol|lmao|haha+|sorry|oops))?"  # ('ugh actually my mom said no. never mind lol')
    # ("oh, it's in my other email account... don't worry, I'll do it later")
    r"(?:\s*[,;:.!-]*\s*" + LATER_TAIL + r")?[\s.!]*$",  # ('..., dont worry ill phone up')
    re.IGNORECASE,
)
# "forget it, it works again": a stop word first, then a clause that starts nothing new
CANCEL_LEAD = re.compile(
    r"^\s*" + _FILLER_LEAD + r"(?:please\s+)?(?:cancel(?: (?:it|that|this))?|stop(?: (?:it|that|this))?|abort|quit|"
    r"forget (?:about )?(?:it|that|this)|never ?mind|nvm|scratch (?:that|it)|scrap (?:that|it)|drop (?:it|that)|don'?t bother|"
    r"don'?t worry(?: about (?:it|that|this))?|leave it for (?:now|the moment|today)|"
    # 'actually forget booking, i just want to look': the task let go, named (``task``)
    r"(?:forget|scrap|scratch|drop|ditch|never ?mind|nvm) (?:about )?(?:the |my |this |that )?(?P<task>(?!(?:it|that|this)\b)[a-z]+(?: [a-z]+)?)"
    r"(?: for (?:now|the moment|today))?)"
    # ('nvm i dont have it on me, lets go back to ...': a new clause with its own subject, unpunctuated)
    r"(?:\s*[,;:.!-]+\s*|\s+(?=(?:i|i'?m|i'?ll|we|let'?s|lets|just|can|could|please)\b))(?P<rest>.+)$",
    re.IGNORECASE,
)
# 'never mind that, lets go back to booking the flight': the task in progress let go, to go back to another
CANCEL_TO_GO_BACK = re.compile(
    r"^\s*" + _FILLER_LEAD + r"(?:never ?mind|nvm|forget(?: about)?|scrap|scratch|drop) (?:it|that|this)"
    r"(?:\s*[,;:.!-]+\s*|\s+)(?P<rest>.*?\b(?:go(?:ing)? back to|get back to|back to|return to|resume|continue with|"
    r"carry on with)\b.*)$", re.IGNORECASE)
# "I changed my mind", "I don't want to book anymore", "forget the flight": giving up the task in
# progress in plain words; ``what`` must name that task (its words), or nothing at all
ABANDON = re.compile(
    r"^\s*" + _FILLER_LEAD + r"(?:(?:i|we)(?:'ve| have)?\s+)?(?:changed|change) (?:my|our) minds?(?: about (?P<about>.+?))?"
    # ("I've changed my mind, no booking today", '..., not today', '..., I'll leave it')
    r"(?P<after>[\s,.;!-]+(?:no [a-z]+ (?:today|now|after all|for now)|not (?:today|now|anymore|any more)|"
    r"(?:i'?ll|ill|we'?ll) (?:leave|skip|drop) (?:it|that)(?: for now)?))?[\s.!]*$"
    r"|^\s*" + _FILLER_LEAD + r"(?:i|we)\s+(?:don'?t|do not|no longer|won'?t|will not)\s+(?:really\s+)?"
    r"(?:think\s+(?:i|we)\s+(?:really\s+)?)?(?:want|need|wish)(?:\s+to)?"  # ("No, I don't think I need the new one after all.")
    r"(?P<what>(?:\s+.+?)?)\s*(?P<tail>any ?more|any longer|after all)?[\s.!]*$"
    r"|^\s*" + _FILLER_LEAD + r"(?:please\s+)?(?:forget|scratch|scrap|drop|ditch|abandon|never ?mind|nvm|don'?t worry)\s+(?:about\s+)?"
    r"(?P<task>.+?)[\s.!]*$",
    re.IGNORECASE,
)
# 'no don't book it, I've changed my mind', 'dont send it after all': the task's own verb, taken back
# (not 'don't book it yet', 'don't book it until friday': a wait)
DONT_DO_IT = re.compile(r"^\s*" + _FILLER_LEAD + r"(?:please\s+)?(?:don'?t|do not|dont|let'?s not|lets not)\s+(?P<verb>[a-z]+)"
                        r"\s+(?:it|that|this|them|anything)\b(?!\s+(?:yet|until|till|before|unless|for now))"
                        r"(?:\s+(?:after all|today|right now|now|then))?\s*(?:[,.;!-]+\s*(?P<rest>.*))?$",
                        re.IGNORECASE)  # ("let's not book anything today. We'll talk it over with the children first.")
# 'rather than an extra one, can I just move my Saturday one': the task said not to be wanted
RATHER_THAN = re.compile(r"\b(?:rather than|instead of)\s+(?P<what>[^,.;!?]+?)(?=\s*(?:[,.;!?]|\b(?:can|could|i|we|just|please)\b|$))",
                         re.IGNORECASE)
ABANDON_FILLER = frozenset({"anymore", "longer", "whole", "thing", "idea", "altogether", "after", "entirely"})
# 'switch it to 2 passengers', 'can we change the date to dec 11': a value changed in so many words
CHANGE_TO = re.compile(r"\b(?:change|switch|swap|move)\b(?:\s+(?:it|that|this|the\s+\w+|my\s+\w+))?\s+to\b",
                       re.IGNORECASE)
# 'whens my next appointment': a question word written without its apostrophe, no content of a value
UNAPOSTROPHED = frozenset("whats whens wheres whys hows whos thats theres".split())
# 'do i need a full bladder for it??', 'what if i panic inside the machine', 'is it ok to eat before':
# what to do, bring or expect for the task in hand
ASKS_ADVICE = re.compile(
    r"\b(?:do|will|would|should|must)\s+(?:i|we)\s+(?:need|have to|bring|wear|eat|drink|fast|stop|avoid|take|prepare)\b"
    r"|\bwhat if\s+(?:i|we|my|the|it)\b|\bis it (?:ok|okay|alright|safe|fine|normal)\s+(?:to|if)\b"
    r"|\bcan (?:i|we) (?:eat|drink|bring|wear|take|drive)\b|\bhow (?:should|do) (?:i|we) prepare\b",
    re.IGNORECASE)
# 'dont bother with the price alert', 'no need for the reminder': a task not wanted after all
DONT_BOTHER = re.compile(r"\b(?:do not|don'?t|no need to)\s+bother\b|\bno need for\b", re.IGNORECASE)
# 'cancel both', 'stop everything', 'forget all of it': every task of the request, the parts waiting too
# (not 'both of us, and drop the window seat')
STOPS_EVERYTHING = re.compile(
    r"\b(?:cancel|stop|scrap|drop|forget|ditch|abort|scratch)\s+(?:it\s+)?(?:both|everything|all of (?:it|them|that|this)|"
    r"the whole (?:lot|thing)|all (?:of )?those|the lot)\b", re.IGNORECASE)
CANCEL_VERB = re.compile(r"\b(cancel|stop|abort|forget|drop|scratch|scrap|ditch|abandon|scrub)\b", re.IGNORECASE)
RESUME = re.compile(
    r"\b(go(?:ing)? back to|back to|get back to|return to|resume|continue(?: with)?|pick up|carry on with|"
    r"(?:(?<=let's )|(?<=lets ))finish(?: off)?(?: with)?|where were we)\b",  # ('let's finish the booking')
    re.IGNORECASE,
)
# 'I'd like to get back to booking the tickets': going back to a task by name (not 'fly back to Boston')
RESUME_TASK = re.compile(
    r"\b(?:go(?:ing)? back to|get(?:ting)? back to|return to|resume|continue with|carry on with|pick up)\s+"
    r"(?:the |my |our |that |those )?\w+ing\b|\b(?:go(?:ing)?|get(?:ting)?) back to the\b",
    re.IGNORECASE,
)
SHIFT = re.compile(
    r"\b(actually|instead|wait|hold on|hang on|one sec(?:ond)?|just a sec(?:ond)?|(?:quick|random|odd|silly) (?:question|qn|q)|"
    r"by the way|first|"
    r"(?:just|give me|wait|hold on|hang on)\s+(?:a|one) (?:moment|min|minute|mo|tick)\b|^\s*(?:a|one) (?:moment|min|minute)\b(?! ago)|"
    r"\bone moment\b|"
    r"before (?:i|we|you) do|before (?:we|i|you) go (?:any )?further|"
    r"rather|switch(?=\s+(?:over\s+)?to\s+\w+ing\b|\s+(?:gears|topics?|tasks?)\b|\s*[,.!?]*$)|before (?:that|this)|let me|"
    r"change of plans?|on second thought|"
    r"while (?:i'?m|i am|we'?re|we are) (?:here|at it|on)|while i(?:'ve| have) (?:got )?you)\b",  # ('oh and while I'm here, ...')
    re.IGNORECASE,
)
CORRECTION = re.compile(
    r"\b(actually|make it|(?:change|switch|swap) (?:it|that)|(?:switch|swap)(?: the \w+)? to|i meant|i mean|sorry|"
    r"correction|not .+ but|instead)\b|^\s*no,"
    # ('Naw hang on, no the 10th, the 11th', 'no wait, ...')
    r"|\bno wait\b|\bwait,? no\b|(?:^|[,.]\s*)(?:no|naw|nah|nope)\s+(?=the\s+\d)"
    # 'leaving from Boston, not Chicago' (not 'for two, not too late', 'not sure when')
    r"|,\s*(?:and\s+)?not\s+(?!(?:sure|too|yet|really|much|quite|so|now|exactly|that|very|at all|bad|great)\b)"
    r"(?:the\s+)?\w+(?:\s+\w+)?\s*[.!]*$",
    re.IGNORECASE,
)
# 'the 12th then', 'lisbon then': a value settled on; it answers the question asked, it corrects nothing by itself
SETTLES_ON = re.compile(r"\bthen\s*[.!]*$", re.IGNORECASE)
# the verbs that open a request to the assistant ('show me flights', 'give me the number')
ORDER_VERBS = r"give|tell|show|send|find|search|look|check|book|reserve|rent|begin|start|cancel|hold"
ORDER = re.compile(r"^\s*(?:(?:please|pls|ok|okay|now|and|also|so|then|just|actually|first|hmm+|oh|no|wait|maybe|perhaps|"
                   r"can you|could you)[\s,]+)*(?:" + ORDER_VERBS + r")\b", re.IGNORECASE)
# 'how about Dec 26', 'ok what about the 12th?': a value put forward, not a question about one
# ('actually can it be from new york?', 'could we do friday at 10 instead?')
_PROPOSAL = (r"(?:(?:how|what) about|(?:can|could) (?:it|that|we|you) (?:be|do|make it|make that)"
             # ("Could I come Wednesday the 9th?", 'can we drop it off at 8?': a moment put forward for coming)
             r"|(?:can|could|may) (?:i|we) (?:come(?: in| over| round| by)?|drop (?:it|her|him|them|the \w+) off|"
             r"bring (?:it|her|him|them|the \w+)(?: in)?)(?= (?:on|at|this|next|the|tomorrow|today|\w+day)\b| \d)"
             # ('Wait, hmm, maybe January 6th would be better?': a value put forward, unsure)
             r"|(?:maybe|perhaps)\s+(?=[\w\s,:]{1,40}?\b(?:would|might|could) (?:be|work) (?:better|best|easier|good|ok|okay)\b)"
             # ('would thursday the 10th at 11am work?', 'Would Wednesday the ninth of December be convenient, at half past ten?')
             r"|would\s+(?=(?!(?:you|it|that|i|we|they|he|she)\b)[\w\s,:']{1,50}?\b(?:work|suit|do|be (?:ok|okay|alright|"
             r"convenient|possible|fine|free|available))\b))\b")
_PROPOSES = re.compile(r"^\s*(?:(?:ok|okay|so|and|hmm+|well|oh|um+|then|actually|sorry|wait|no|oh no|damn|shame)[\s,.!]+)*"
                       + _PROPOSAL,  # ('oh no. what about sunday then')
                       re.IGNORECASE)
# '..., can we do friday at 10 instead': a value put forward anywhere in the turn, in the words of a request
PROPOSES_ANYWHERE = re.compile(r"(?:^|[,.;!?]\s*|\b(?:so|then|but|and|actually|sorry)\s+)" + _PROPOSAL, re.IGNORECASE)


def proposes(text: str) -> bool:
    """'how about Dec 26': a value put forward; not 'what about Mexico City, do you go there?'."""
    m = _PROPOSES.match(text)  # (the clauses after the one that puts the value forward: 'Ok, what about the 11th?' asks none)
    return m is not None and not any(QUESTION_START.match(c) or _ASKING.match(c)
                                     for c in re.split(r"[,.;:!?]+", text[m.end():].strip())[1:] if c.strip())
# 'book that one', 'cancel it', 'the same for Friday', 'reserve a table there': a task before this one
REFERS_BACK = re.compile(
    r"\b(?:that one|this one|the same|same|it|its|them|their|those|there|that|this|"
    r"the (?:cheapest|cheaper|earliest|latest|first|last|quickest|shortest) (?:one|flight|option)|"
    # ('the cheapst one', 'the 9am one', 'the morning one': one of what was just found, however written)
    r"the [\w:-]+ one|"
    # ('book cheapest' after a search: its best, short)
    r"(?:the )?(?:cheapest|earliest|quickest|shortest)(?! (?:\w+ )?(?:to|from|for|in|on)\b))\b",
    re.IGNORECASE,
)
# 'from that search', 'the last search': a task done before, named as a thing (its word asks for nothing new)
TASK_DONE = re.compile(r"\b(?:that|this|your|the (?:last|previous)|(?:from|in|of|on) the)\s+([a-z]+)", re.IGNORECASE)
# 'can you do the same for friday', 'same again on the 12th', 'the same but for two': the task just
# done, again, changed where the turn says
SAME_AGAIN = re.compile(r"\b(?:do|book|make)\s+(?:the\s+)?same(?:\s+(?:thing|again))?(?=\s+(?:for|on|but|with)\b|[\s.!,]*$)"
                        r"|\bsame\s+(?:again|thing)\s+(?:for|on|but|with)\b", re.IGNORECASE)
# 'I'll take that one', 'let's go with it': choosing what a look-up just showed
TAKES_IT = re.compile(
    r"\b(?:i'?ll|i will|we'?ll|we will|let'?s|i'?d like to|i want to|i can) (?:take|go with|go for|get|have|grab)"
    r" (?:that|this|it|one|that one|this one|those|them|the (?:first|second|third|last|cheapest|cheaper|earlier|later) one)\b"
    # ('Cool, put 2 PAX on that one': people put on a flight found)
    r"|\bput (?:(?:me|us|(?P<count>\w+ (?:pax|people|passengers|persons|adults|seats|of us)))\s+)?on (?:that|this|it|that one|this one|"
    r"the (?:first|second|third|last|cheapest|cheaper|earlier|later) one)\b",
    re.IGNORECASE,
)
# 'cancel the second one', 'the other one': an item of a list other than the first, which a value
# carried from the task before (its first result) would not be
PICKS_ANOTHER_ITEM = re.compile(
    r"\b(?:second|third|fourth|fifth|2nd|3rd|4th|5th|last|latter|other|later|next|final)\s+(?:one|of them|appointment|"
    r"booking|reservation|item|result|option)\b|\b(?:number|no\.?|#)\s*[2-9]\b",
    re.IGNORECASE,
)
# 'actually, cancel it instead': the new task replaces the one in progress (not 'X first')
INSTEAD = re.compile(r"\binstead\b(?!.*\bfirst\b)|\binstead of (?:that|this|it)\b", re.IGNORECASE)
# "I think it's better to just cancel it and rebook ...": another task preferred to the one in progress
BETTER_TO = re.compile(r"\b(?:it'?s|it is|it'?d be|it would be) (?:better|best|easier|simpler) (?:to|if)\b", re.IGNORECASE)
# 'hold on', 'wait', 'one sec': the task in progress is put aside for a moment, not replaced
HOLDS_ON = re.compile(r"\b(?:hold on|hang on|one sec(?:ond)?|one moment|just a (?:sec|second|moment))\b", re.IGNORECASE)
# 'from Chicago - no wait, from Boston': what follows takes back what came before
SELF_REPAIR = re.compile(
    r"\b(?:no,? wait|wait,? no|no no|i mean|i meant|sorry|actually|or rather|rather|scratch that|make (?:it|that)|"
    r"correction|oops|my (?:bad|mistake))\b"
    r"|(?:\.{2,}|…|\s[-–—]+)\s*no\b(?=\s*,)",  # ('from New York... no, Boston, to Chicago')
    re.IGNORECASE,
)
# (and as texted, where a question follows: 'wat time r u open', 'wen do u close', 'hw much is it'; not
# 'Wen Li' or 'Wat Tyler' to the name question, nor 'wen i swallow my throat hurts')
_TEXTED_ASKS = (r"(?:wat|wats|wot|wut|wen|hw)(?= (?:do|does|did|is|are|r|was|were|can|could|will|would|should|time|"
                r"much|many|long|u|you|ur|your|the|it|its|kind|sort|type|day|days)\b)")
_ASKS = (r"what|whats|which|where|wheres|when|whens|why|how|hows|who|whos|whose|do you|does|did you|can you|could you|"
         r"are you|is there|is it|are there|will you|have you|have i|have we|do i|did i|am i|is my|are my|"
         r"do (?:\w+ ){1,2}(?:need|have to|get|pay|count)|"  # ('hold on do kids need own seat')
         r"(?:are|r) (?:we|u|you|kids|dogs|pets|children) (?:allowed|permitted)|"  # ('r we allowed to ...?')
         + _TEXTED_ASKS)
_QUESTION_WORDS = r"(?!what (?:i|we) (?:meant|mean|said|wanted)\b)(" + _ASKS + r")\b"  # 'what i meant was ...' tells
QUESTION_START = re.compile(r"^\s*(?:(?:and|so|oh|ok|okay|well|wait|hang on|hold on|sorry|quick question|hi|hey|hello|hiya|"
                            r"great|perfect|lovely|cool|brilliant|nice|thanks)[\s,.:-]+"  # ('great and where do i go ...')
                            r"(?!(?:can|could|would|will) (?:you|u)\b))*"
                            # ('and how much is the hearing test'; 'ok, can you book it' is a request)
                            r"(?:(?:before that|but first|first|actually|also|btw|by the way|"
                            r"(?:(?:hmm+|um+)[\s,]+)?(?:let me|lemme|let'?s) (?:see|check))[\s,]+)?" + _QUESTION_WORDS,
                            re.IGNORECASE)
# who wants: 'i', 'we', and a party said as the subject ('me and my wife need to get to orlando')
WE = r"(?:i|we|me and (?:my|the) \w+|my \w+ and (?:i|me))"
# 'want' and 'need', and the ways they are mistyped ('i wnat to bok a flight', 'i ned to ...')
WANT = r"(?:want|wnat|watn)"
NEED = r"(?:need|ned|require)"  # ("I require a flight ...": need, said formally)
REQUEST_START = re.compile(r"^\s*(can you|could you|would you|will you|can i get|could i get)\b", re.IGNORECASE)
# 'Ok, that works. Can you book it?': a request in any sentence of the turn, not only its first
REQUEST_ANYWHERE = re.compile(
    r"(?:^|[.!?,;]\s*|\b(?:so|then|now|also|and|first|but|actually|wait|maybe|hmm+|um+|ok|okay|well|oh|before that|"
    r"after that|btw|by the way|hi|hey|hello|hiya)\s+)(?:please\s+)?"  # ('hi could you ...', 'hi could i move ...?')
    r"(?:(?:can|could|would|will) (?:you|u|someone|somebody|anyone|(?:a|an|the|your|one of (?:your|the)) [a-z']+(?: [a-z]+)?"
    r"(?= \w+ (?:(?:to|and (?:see|visit|do))\s+)?(?:me|us|him|her|them)\b)|a [a-z]+"  # ('can the nurse come to her instead?')
    r"|(?:she|he|my (?:son|daughter|wife|husband|mum|mom|dad|kid|child|partner))(?= (?:see|get|come(?! with| along| in (?:the|with)| into)|be seen)\b))"
    r"|any chance (?:that )?(?:you|u) (?:could|can|would))\s+(?:please\s+)?"
    r"(?!tell\b|let me know\b(?!\s+(?:when|once|as soon as)\b)|(?:give|get|send) me (?:the|their|its|a list)\b|find out\b|say\b|confirm\b|"
    r"check (?:if|whether)\b)\w+"
    # 'can I get a table?' asks for something; 'can I bring pets?' asks whether it is allowed
    r"|(?:^|[.!?,;]\s*|\b(?:so|then|now|also|and|ok|okay|hmm+|um+|well|oh|actually|wait|but|hi|hey|hello|hiya)\s+)"
    r"(?:can|could|may|shall|should) (?:i|we) (?:please )?"
    # ('Can I bring my road bike in for a basic service?': brought in for the task, asked for)
    r"(?!bring\b(?![^?.!]*\bin for\b)|take\b|carry\b|use\b|smoke\b|park\b|come\b(?!\s+in\b)|go\b|travel with\b|pay (?:with|by|in)\b)\w+"
    # ('what's the fee if i need to change it?': a condition, no request)
    # ('do i need to fast before an ultrasound?': asked whether one must, no request)
    r"|(?<!\bif )(?<!\bwhen )(?<!\bcase )(?<!\bwhether )(?<!\bonce )(?<!\bdo )(?<!\bdid )"
    r"\b(?:i|we)(?:'d| would| " + WANT + r"| wanna| need| oughta| ought to| had better| 'd better"
    r"|\s+(?:also|just|really|still|actually|now|then)\s+(?:" + WANT + r"|wanna|need|would|oughta))\b"
    r"(?!\s+(?:like\s+)?to\s+know\b)|\b(?:please|let'?s|go ahead and)\s+\w+"
    r"|(?:^|[.!?,;]\s*)(?:how|what) about \w+ing\b"  # 'how about booking the restaurant now?'
    r"|(?:^|[.!?,;]\s*)(?:is there )?any chance (?:of|i could|we could) \w+"  # ('any chance of renting 2 ...?')
    r"|\b(?:wondering|wonder|hoping|hope) (?:if|whether) (?:i|we|you|u|someone) (?:could|can|might|may)\s+\w+"
    r"|(?:^|[.!?]\s+)(?:(?:ok|okay|great|sure|yes|so|now|then|and|also)[\s,]+)*"
    r"(?:get|book|reserve|find|buy|make|add|schedule|search|look|show|check|purchase|order|arrange|set up|call|"
    r"notify me)\b",  # ('... Could you tell us when New York to Paris drops under $500?', told as 'notify me when ...')
    re.IGNORECASE,
)
HELP = re.compile(
    r"^\s*(?:(?:hi|hey|hello|hiya|ok|okay|so|um+|erm+|hmm+|sorry|wait|oh)[\s,!.]+)*"
    # ('erm im new to this, ...', 'hello, first time using this, ...': a short word about oneself first)
    r"(?:(?:i'?m|im|i am) (?:completely |totally |very |quite |brand )?new(?: to (?:this|it|you))?|(?:my )?first time"
    r"(?: using (?:this|it|you))?|never used (?:this|it) before|"
    r"(?:is|are) (?:this|you|u) (?:an? )?(?:automated|bot|robot|real person|human|computer)\??)?"  # ('is this automated? ...')
    r"[\s,!.-]*"
    r"(help|help me|i need help|how does (?:this|it) work|what do you do|i'?m (?:confused|lost)|how do i use this|"
    # ('what does this chat thing actually do?')
    r"what (?:does|do|can) (?:this|the) (?:chat|bot|chatbot|assistant|app|service|thing)(?: thing| bot)? (?:actually )?do|"
    # ('can you walk me through what you're able to do?')
    r"(?:can|could) (?:you|u) (?:walk me through|tell me|explain|show me) what (?:you'?re|you are|u r|you can|u can)"
    r"(?: able to)? do|"
    # 'what sorts of things can you help me with', 'what else can u do', 'how can you help me?'
    r"(?:what|which)(?: (?:sorts?|kinds?|types?) of (?:things|stuff|tasks|jobs))? (?:else )?(?:can|could|do) (?:you|u) "
    r"(?:do|help(?: me)?(?: out)?(?: with)?|handle)(?: for me)?|how (?:can|could) (?:you|u) help(?: me)?|"
    r"what (?:are you|r u) able to (?:do|sort(?: out)?|help(?: me)? with|handle)(?: for (?:me|us))?|what can (?:you|u) (?:actually|even|really) do|"
    r"what (?:can|could) (?:you|u) sort(?: out)?(?: for (?:me|us))?|"
    r"what can i ask(?: you)?(?: for| about)?)\b[\s?!.]*$",
    re.IGNORECASE,
)
STATUS = re.compile(
    r"\b(what (?:else )?do (?:you|u|ya) (?:still )?need|what(?:'s| is) (?:left|missing|next)|where (?:are|were) we|"
    r"where was i(?: up to| at)?(?=\s*[?.!]*\s*$)|"  # ('sorry, got distracted by the door. where was i up to?')
    r"what (?:are|were) we doing|what have i (?:told|given) you|what do you have so far|what else is needed|"
    # ('What all details have you noted till now?')
    r"what (?:all )?(?:details|info|information) (?:have|do) (?:you|u) (?:noted|got|taken|recorded|have)"
    r"(?: down)?(?: so far| till now| until now| up to now)?|"
    # 'what was the time again?', 'remind me what I said': asking back what was said
    r"what (?:was|is|were|did i say for) (?:the|my) \w+(?: \w+)? again|remind me what (?:i|we) (?:said|picked|chose))\b"
    r"|^\s*(?:status|what's the status|where are we at)\s*\??\s*$",
    re.IGNORECASE,
)
# before a value: the user rules it out ("not Chicago", "instead of the printer")
NEGATED_BEFORE = re.compile(r"(?:\b(?:not|instead of|rather than|better than|except|but not|no longer|"
                            r"i (?:said|typed|wrote|put|told you)|"
                            r"(?:^|[.,;!]\s*|\b(?:no|so|ok|okay|oh)[\s,]+)(?:forget|scrap|never ?mind|nvm|drop)(?: about)?)"  # ('No, forget Denver.')
                            # ('he'd rather do los angeles than miami')
                            r"|\b(?:rather|sooner|prefer|prefers)\b[^,.;!?]{1,40}?\bthan)\s+(?:the\s+|a\s+|an\s+)?$",
                            re.IGNORECASE)
# 'i cant make my scan on monday': the moment given up, not a new one (not 'cant make it before 3pm on friday')
GIVEN_UP_BEFORE = re.compile(r"\b(?:(?:can'?t|cannot|can not|won'?t|couldn'?t)\s+(?:make|do|come|attend|manage|go)"
                             # ("I won't be in on Thursday", "we're not home on the 3rd", "I'll be away on Friday")
                             r"|(?:won'?t|will not|can'?t|cannot)\s+be\s+(?:in|home|there|around|about|available)"
                             r"|(?:i'?m|we'?re|i am|we are)\s+(?:not\s+(?:in|home|around|available)|away|out)"
                             r"|(?:i'?ll|we'?ll|i will|we will)\s+be\s+(?:away|out))\b"
                             r"(?:\s+(?!(?:but|and|so|can|could|how|what|before|till|until|after|by|from)\b)[\w'-]+){0,3}?"
                             r"(?:\s+(?:on|at|for|this|next))?\s+$", re.IGNORECASE)
# ... or after it: 'thursday is no good anymore', 'friday doesn't work for me'
GIVEN_UP_AFTER = re.compile(r"\s*(?:(?:is|'s|are)\s+(?:no good|not good|not great|bad|out|a no(?:-go)?|no longer (?:good|ok|possible)|"
                            r"not possible|impossible|useless|no use|of no use|pointless|rubbish|out of the question|a write-?off)|(?:isn'?t|is not) (?:good|ok|okay|possible|great)|"
                            r"(?:doesn'?t|does not|won'?t|will not|no longer) (?:work|suit)s?)\b", re.IGNORECASE)
# what the user rules out, to the end of its clause: 'not 2pm', 'instead of Robert Hays'
_DENIED = re.compile(r"\b(?:not|instead of|rather than|better than)\s+(?!(?:sure|too|yet|really|much|quite|so|now|exactly|that|"
                     r"very|at all|bad|great|a problem)\b)(?P<value>[^,.;:!?]+)", re.IGNORECASE)


_DOING = re.compile(r"(?:just\s+)?(?P<verb>[a-z]+ing)\b", re.IGNORECASE)


def put_aside_spans(text: str) -> list[tuple[int, int]]:
    """'rather than cancelling could I just move it?': the task said only to be put aside names no task."""
    spans = []
    for m in RATHER_THAN.finditer(text):
        doing = _DOING.match(m["what"])
        if doing is not None:
            spans.append((m.start("what") + doing.start("verb"), m.start("what") + doing.end("verb")))
    return spans


# 'Quick question before I confirm: ...': the yes a read-back waits for, named (no task of its own)
_BEFORE_THE_YES = re.compile(r"\bbefore\s+(?:i|we)\s+(?:confirm|say yes|commit|go ahead|book(?: it| that)?)\b|"
                            r"\bbefore (?:confirming|booking it|going ahead)\b", re.IGNORECASE)


def before_the_yes_spans(text: str) -> list[tuple[int, int]]:
    """'Quick question before I confirm: will they be seated together?': the yes awaited names no task."""
    return [m.span() for m in _BEFORE_THE_YES.finditer(text)]


# what is held stays as it is: 'I'll be keeping that flight after all', 'keep it for now', 'I withdraw that instruction;
# the original date shall stand'
KEEPS_IT = re.compile(r"\b(?:(?:i'?ll|i will|we'?ll|we will|i'?m|i am|we'?re|we are)\s+(?:be\s+)?(?:just\s+)?keep(?:ing)?\s+"
                      r"(?!(?:it|that|this|them)\s+(?:in mind|posted|updated|safe)\b)(?:it|that|this|them|the \w+|that \w+|my \w+|our \w+)|^\W*(?:(?:hmm+|um+|no|actually|ok|okay|oh)[\s,.!]+)*"
                      r"keep (?:it|that|them)(?: for now| as it is| as is| then)?\b|\bwithdraw (?:that|my|the|this) (?:instruction|request)"
                      r"|\b(?:the )?original (?:date|time|booking|appointment|one) (?:shall|will|can|should|is to) stand)",
                      re.IGNORECASE)


def denied_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names a value only to rule it out ('3pm not 2pm'): never a value."""
    return [m.span("value") for m in _DENIED.finditer(text)]


# verbs that lead in to a bare answer ("fly from Atlantis", "go with the green one")
LEAD_VERBS = frozenset({"leave", "leaving", "go", "going", "make", "use", "try", "pick",
                        "choose", "say", "its", "it's", "that's", "thats", "how", "about", "with"})
CLARIFICATION = re.compile(r"^\s*(why (?:do|would|should) you (?:need|want)|why is that|what for|why\?)", re.IGNORECASE)
SMALL_TALK = re.compile(
    r"^\s*(?:(?:ok|okay|oh|well|that's|that is)[\s,]+)?(hi|hello|hey|good (?:morning|afternoon|evening)|how are you|thanks|"
    r"thank you|cheers|great|cool|"
    r"nice|awesome|bye|goodbye|see you|you're welcome|lol|haha|ugh+|meh|argh|sigh|phew)\b[\s\w,.!?']{0,20}$",
    re.IGNORECASE,
)
# 'Boston to Denver on the 10th, then Denver to Seattle': where one part of a request ends
PART_BREAK = re.compile(
    # ("what's the baggage allowance then?": a 'then' that ends the sentence joins nothing)
    # (nor does a 'then' that gives what follows from it: '..., then at least we're in the system')
    # (nor a 'then' that opens a sentence: 'I see. Then I should be grateful if you would remind me ...')
    r"[,;]?\s*\b(?:and then|and after that|and afterwards|after that|afterwards|(?<![.!?]\s)(?<!^)then(?!\s*(?:[!?]|\.?\s*$|at least\b))|and also|"
    r"and (?:i|we) also(?= (?:need|want|would like|'d like))|followed by|"
    r"and later|as well as)\b\s*"
    # ('first, a search for flights ...; second, a check-in reminder ...': items counted off)
    r"|[,;.]\s*(?:second(?:ly)?|third(?:ly)?|2\)|3\))[,:]?\s+",
    re.IGNORECASE,
)
# 'have I got anything booked?', 'what I've reserved': a thing already done, not a request to do it
ALREADY_DONE = re.compile(
    r"\b(?:have|has|had|got|'ve|'s|already|anything|something|what)\b(?:\s+(?!never\b|not\b|n't\b)\w+){0,2}?\s+"
    r"(?P<done>[a-z]+ed|had|given|taken|done|seen)\b",  # ('what jabs my daughter has actually had')
    re.IGNORECASE,
)
# 'an appointment', 'another flight', 'a new booking', 'a blood pressure check appointment': asking for a new
# one (the words of the thing asked for, up to four)
_NP_WORD = r"(?:\s+(?!(?:of|for|to|in|at|on|with|from|and|or|but|that|which|please|pls|needed|asap)\b)([a-z]+))?"
INDEFINITE = re.compile(r"\b(?:a|an|another|one more)\s+(?:new\s+)?([a-z]+)" + _NP_WORD * 3, re.IGNORECASE)
# (not 'to go and see my grandchildren', 'come and get': one thing done)
AND_BREAK = re.compile(r"(?<!\bgo)(?<!\bcome)(?<!\btry)(?<!\bpop)\s*,?\s+and\s+(?:also\s+)?(?:can you\s+|could you\s+|please\s+)?"
                       # ('check BK-20481 for me, also set a check-in reminder for it', '...? also cancel BK-31337')
                       r"|\s*[,.?!;]\s*(?:oh and|also|btw|plus)[\s,]+(?:can you\s+|could you\s+|please\s+)?",
                       re.IGNORECASE)
# "thanks, that's all I needed", "bye for now": the user is done
CLOSING = re.compile(
    r"^\s*(?:(?:ok|okay|great|perfect|cool|awesome|alright|no|nope|nah|thanks|thank you(?: (?:so|very) much)?|"
    r"thanks a lot|that's great|wonderful|all good|ok cheers|cheers|ta(?: very much)?|actually|well|oh|hmm+|um+|nvm|never ?mind|anyway|kk|k|"
    r"anyways)[\s,.!;]+)*"
    r"(?:(?:that's|that is|that was|that'll be|that will be) (?:all|it|everything)(?: (?:i|we) (?:need|needed|wanted|want))?"
    r"(?: for (?:now|today))?|(?:good ?)?bye(?: for now)?|see you(?: later)?|have a (?:good|great|nice) (?:day|one|night)|"
    r"i'?m (?:all set|done|good|fine|ok|okay)|(?:we'?re|we are) (?:all set|done|good|fine)|nothing else|no,? that's it|"
    r"that'?s me sorted|(?:i'?m|we'?re) (?:all )?sorted|that'?s me(?: done| finished)?|"
    # ('Thank you; that concludes my business for today.')
    r"that (?:concludes|completes) (?:my|our|the) (?:business|enquiry|enquiries|inquiry|query|queries)|"
    r"end of (?:session|conversation|chat|transmission)|(?:session|conversation|chat) (?:ended|over|closed)|"  # ('Thank you. End of session.')
    r"all good|see you(?: later| soon)?)"
    r"(?:[\s,.!]+(?:thanks|thank you|thanks again|thanks anyway|thank you anyway|bye|goodbye|cheers|for now|"
    r"for today|for the day))*[\s.!]*$",
    re.IGNORECASE,
)
# A closing in one's own words ('No, thank you. That is all the assistance I need right now',
# 'Nothing now, thanks for asking though', 'No. I am all set. Thanks.'): every word is thanks,
# a no, 'that's all' or praise for the help, and it ends the talk or declines with thanks.
THANKS = frozenset({"thanks", "thank", "thankyou", "thx", "ty", "tysm", "thnx", "thanx", "cheers", "ta",
                    "gracias", "merci", "danke", "grazie", "obrigado", "obrigada"})  # also texted, British, and abroad
_CLOSING_WORDS = THANKS | frozenset("""
no nope nah not nothing none thankful grateful appreciate appreciated you your yours
help helping helped helpful assistance assist assisting service all set good fine great well ok okay
alright awesome perfect wonderful excellent lovely nice kind really truly very so much lot lots bunch
cool brilliant brill fab fantastic sweet ace splendid super cheers ta speak talk chat
that that's thats this is was it it's its everything enough done bye goodbye now today tonight
right moment time again for the a an my me i i'm im am we we're are be been would will i'll that'll
need needed want wanted require anything else more further other asking though maybe later perhaps just
actually oh well have had has day night take care see soon there at of to with from and but anyway anyways
u ya cya x xx xxx verry mutch thnks smashing marvellous marvelous grand dear love hun pet mate laters ttyl ciao tata stuff ever vale adios adiós
you've youve you're youre catch as
much obliged ma'am maam sir y'all yall chur bro choice mon irie shukriya dhanyavaad
peak sorted proper innit bruv legend safe mint sound chale merci beaucoup spasibo
prompt quick swift support response reply
""".split())
_CLOSING_ENDS = frozenset({"all", "set", "nothing", "enough", "bye", "goodbye", "done", "everything", "cya", "laters", "ttyl",
                           "tata", "ciao"})
_DECLINING = frozenset({"no", "nope", "nah", "not", "nothing"})
_GRATEFUL = THANKS | frozenset({"thankful", "grateful", "appreciate", "appreciated", "helpful", "good", "well", "fine"})


# 'no thanks, I'll sort it out later, bye': declining and putting it off
# 'i need to check with her dad first', 'let me ask my wife': someone else to ask, no task of the assistant's
CONSULTS = re.compile(r"\bconsult (?:my|her|his|their|our|the)\s+\w+|"
                      r"\b(?:check|talk|speak|discuss(?: it)?|run it|confirm(?: it)?|talk it over|talk it through)\s+"
                      r"(?:with|to|by|past|from)\s+"  # ('let me confirm from my wife first')
                      r"(?:my|her|his|their|our|the)\s+\w+|\bask\s+(?:my|her|his|their|our)\s+\w+", re.IGNORECASE)
# 'hmm let me talk to my wife first, I'll come back to this another time': what must happen first
_FIRST = (r"(?:let me|i need to|i'?ll have to|i have to|i should|i gotta|gotta|i want to|i shall|i'?ll|we shall|we'?ll)\s+"
          r"(?:talk|speak|check|think|ask|discuss|run it by|see|look|consult)\b[^,.;!?]*?"
          r"(?:[,.;!-]+\s*|\s+and\s+(?=(?:get|come|call|ring|phone|check)\s+back\b|write\s+(?:again|back)\b))")
_OFF_LEAD = (r"(?:no|nah|nope|ok|okay|thanks|thank you|thx|ty|no thanks|actually|hmm+|on reflection|on second thoughts?|leave (?:it|that)(?: with me)?|"
             r"hold off|hold fire|hang fire|yeah nah|ah wait|wait|cool|alright|fair enough|no worries|"
             r"never ?mind|nvm|forget (?:about )?it|"
             r"don'?t bother|(?:drop|scrap|skip) it)[\s,.!]+(?:and\s+)?")
# (a reason told first: "I haven't got the letter with me, never mind, I'll phone the clinic")
_REASON_FIRST = r"(?P<reason>(?![^,.;!?]*\?)(?:[^\s,.;!?]+\s+){1,16}?[^\s,.;!?]+[,.;]\s*(?=" + _OFF_LEAD + r"))?"
_PUTS_OFF = re.compile(r"^\s*(?:" + _OFF_LEAD + r")*" + _REASON_FIRST + r"(?:(?:" + _OFF_LEAD + r")+|(?:" + _OFF_LEAD + r")*" + _FIRST + r")" + LATER_TAIL
                       + r"[\s,.!]*(?:(?:bye|goodbye|thanks|thank you|ta|cheers|yours (?:faithfully|sincerely|truly)|(?:kind |best )?regards)"
                       r"[\s,.!]*)*$"
                       # ('ugh i dont have my card on me, ill sort it another time': what is missing, then later)
                       + r"|^\s*(?:(?:ugh|argh|oh|ah|hmm+|sorry|um+)[\s,.!]+)*[^.?!,;]*?\b(?:don'?t|dont|do not|haven'?t|have not|"
                       r"can'?t|cant|cannot)\s+(?:have|got|find|know|remember|see)\b[^,.;!?]*[,.;]\s*" + LATER_TAIL
                       + r"[\s,.!]*(?:(?:bye|goodbye|thanks|thank you|ta|cheers)[\s,.!]*)*$"
                       # 'hmm maybe later', 'another time then': later, and nothing else
                       + r"|^\s*(?:(?:hmm+|um+|ok|okay|well|ah|oh)[\s,.!]+)*(?:maybe|perhaps|probably)?\s*"
                       + r"(?:later(?: on)?|another time|some other time)(?:\s+then)?[\s,.!]*"
                       + r"(?:(?:bye|goodbye|thanks|thank you)[\s,.!]*)*$", re.IGNORECASE)


_TAKE_CARE = re.compile(r"\b(?:take care|(?:speak|talk|chat) (?:to you )?soon)\b[\s,.!]*(?:$|bye\b)",
                        re.IGNORECASE)  # not 'take care of it'


_NICE_ONE = re.compile(r"\b(?:nice one|top (?:man|woman|lad|lass)|legend)\b", re.IGNORECASE)  # ('top man, cheers, bye')


def all_sorted(text: str) -> bool:
    """'sorted, cheers', 'all sorted, thanks': done, in British words; a goodbye only with nothing in
    progress ('sorted thanks' to 'shall I go ahead?' agrees)."""
    words = tokens(text)
    return "sorted" in words and all(w in _CLOSING_WORDS or w == "sorted" for w in words)


_ME_SORTED = re.compile(r"\b(?:that'?s me|i'?m|we'?re|i am|we are)(?: all)? sorted\b", re.IGNORECASE)


# 'thanks bye', 'see ya', 'take care': the user leaves
_BYE = r"bye|goodbye|bye bye|cya|see ya|laters|ttyl|ciao"
PARTING = re.compile(r"\b(?:" + _BYE + r"|see you|take care)\b", re.IGNORECASE)
# 'ok I'll look at trains instead, bye': what the user will do themselves, then a parting
_OWN_PLAN_THEN_BYE = re.compile(r"^\s*(?:(?:ok|okay|right|fine|alright|oh well|well|no worries|never mind|nvm)[\s,]+)*"
                                r"(?:i'?ll|ill|i will|we'?ll|we will|i'?m going to|gonna)\s"
                                # (doing it otherwise, not 'i'll take the 10am one, bye', 'I'll just go with that, bye')
                                r"(?=[^?]*\b(?:instead|myself|ourselves|later|elsewhere|another time|tomorrow|next week|"
                                r"train|bus|coach|drive|think)\b)[^?]*?[,.!;-]\s*"
                                r"(?:(?:ok|thanks|thank you|cheers|ta)[\s,!.]+)*(?:" + _BYE + r")"
                                r"[\s.!]*$", re.IGNORECASE)


# 'hang on a sec', 'one moment please', 'paged. brb', 'kids. one sec': the user asks the assistant to wait (a short
# reason before it, nothing asked)
_WAIT = (r"(?:hold on|hang on|hold up|one sec(?:ond)?|one moment|one min(?:ute)?|(?:just )?a (?:sec|second|moment|minute|min|mo|tick)|"
         r"(?:give me|gimme|bear with me for) (?:a|one) (?:sec|second|moment|minute|min|mo|tick)|bear with me|wait(?: a (?:sec|second|moment|minute|min))?|"
         r"brb|be right back|afk|back in a (?:sec|second|min|minute|bit|mo))")
_ASKS_TO_WAIT = re.compile(r"^\W*(?:[\w']+(?:\s+[\w']+){0,3}[.!,-]+\s*)?(?:(?:ok|okay|sorry|um+|oh|hmm+|sec|please)[\s,.!]+)*"
                           + _WAIT + r"(?:[\s,.!]+(?:please|pls|sorry|thanks|ty|x|mate|love|bro|dude|man|hun|pal)|[\s,.!]+" + _WAIT
                           # ('hang on mate, at the servo, one sec': where the user is, between two waits)
                           + r"|[\s,.!]+(?:at|in|on) (?:the|my|a) [\w']+(?=[\s,.!]+" + _WAIT + r"))*"
                           # ('brb gotta grab my charger': what the user goes to do, said after it)
                           r"(?:[\s,.!-]+(?:(?:i )?(?:gotta|got to|have to|need to|must|just)|i'?ll|i'?m (?:just |going to |gonna )?)"
                           r"\s*(?:grab|get|go|answer|take|let|feed|put)\b[^?]*)?[\s.!]*$", re.IGNORECASE)


def asks_to_wait(text: str) -> bool:
    """'one sec', 'hang on a minute please', 'paged. brb': wait for me (nothing else is said)."""
    return bool(_ASKS_TO_WAIT.match(text))


def puts_off(text: str) -> bool:
    """'no thanks, I'll do it later', 'actually hold off, ... I'll get back to you', "I haven't got the letter with me,
    never mind, I'll phone the clinic": the task put off (not 'book friday. ok I'll call you back', a request first)."""
    m = _PUTS_OFF.match(text)
    return m is not None and not (m["reason"] is not None and _asks_for_something(m["reason"]))


def _asks_for_something(text: str) -> bool:
    """Whether ``text`` asks a question or asks for a task in any form (a request, a wish, an order)."""
    return bool(is_question(text) or REQUEST_ANYWHERE.search(text) or WANTS.search(text) or ORDER.match(text))


def is_closing(text: str) -> bool:
    """The user is done: 'no thanks, that's all', 'thanks, bye', 'No. I am all set. Thanks.' (a
    thanks alone, mid-task, is not a goodbye)."""
    if CLOSING.match(text) or puts_off(text) or _OWN_PLAN_THEN_BYE.match(text):
        return True
    # 'ok, ill ask my nephew to take me then. thank you, thats all', 'cheers, that puts my mind at rest. bye now':
    # a last sentence that closes, after sentences that ask for nothing
    last = _LAST_SENTENCE.match(text)
    if last is not None and is_closing(last["last"]) and not _JUDGES.search(last["before"]) \
            and not _asks_for_something(last["before"]):
        return True
    words = tokens(_NICE_ONE.sub("nice", text))  # ('nice one, thats all i needed'; not 'no thats the one i want')
    me_sorted = bool(_ME_SORTED.search(text))  # ("brilliant, that's me sorted, cheers"; not 'all sorted' to 'what date?')
    if not words or len(words) > 16 or words[0] in ("is", "are", "was", "do", "does", "have", "has") \
            or not all(w in _CLOSING_WORDS or me_sorted and w == "sorted" for w in words):
        return False  # 'is that all you have?' asks for more
    said = set(words)
    # 'appreciate it, see you later', 'thanks, take care': a parting phrase ends the talk too
    # ('sweet as, catch ya later')
    parting = bool(said & {"see", "catch"}) and bool(said & {"you", "ya", "u"}) or bool(_TAKE_CARE.search(text))
    return bool(said & _CLOSING_ENDS) or parting or bool(said & _DECLINING and said & _GRATEFUL) or me_sorted


# ('This hotel seems great. That would be all.': a judgment of what was found first, kept in focus as SGD does)
_JUDGES = re.compile(r"\b(?:sounds?|seems?|looks?|is|was|would be)\s+(?:\w+\s+)?(?:perfect|great|good|nice|fine|superb|"
                     r"excellent|awesome|wonderful|lovely|ideal)\b|\b(?:perfect|great|good|nice|superb|excellent|terrific|"
                     r"fantastic)\b|^\W*(?:yes|yep|yeah|ok|okay|sure|alright|cool)\W*$", re.IGNORECASE)
_LAST_SENTENCE = re.compile(r"^(?P<before>.*[.!;])\s+(?P<last>[^.!;?]+?)[\s.!]*$", re.DOTALL)
_THANKS_THEN = re.compile(r"^\s*(?:(?:ok|okay|oh|great|lovely|perfect|brilliant|aw+)[\s,!.]+)*(?:thanks|thank you|thank u|ty|cheers)"
                          r"(?: so much| very much| a lot| a million| ever so much)?[\s,!.-]+(?P<rest>[^?]+?)[\s.!]*$", re.IGNORECASE)


def thanks_then_remark(text: str) -> bool:
    """"thank you so much, that's a weight off my mind", 'thanks, you've been really helpful': thanks, then a
    remark that asks for nothing (no request, question, wish or number: not 'thanks, now cancel my other one')."""
    m = _THANKS_THEN.match(text)
    if m is None:
        return False
    rest = m["rest"]
    return bool(_REMARK_START.match(rest)) and len(tokens(rest)) <= 10 and not any(c.isdigit() for c in rest) and not (
        is_question(rest) or REQUEST_ANYWHERE.search(rest) or WANTS.match(rest) or ORDER.match(rest)
        or _LATER_WANT.search(rest))


# a remark says something of what was done or of how one feels ('that's a weight off my mind', 'you've been great')
_REMARK_START = re.compile(r"\s*(?:that|that's|thats|that is|it|it's|its|it is|you|you've|youve|you're|youre|you are|this|"
                           r"what a|such|so|just|really|very|i'm|im|i am|i was|i feel|i really|we're|much|all|everything|"
                           r"that was|you have|you were|made my|"
                           r"for (?:the|your|all|such|being|a|an|that|this|sorting|helping|your)\b)\b", re.IGNORECASE)  # ('Thanks for the prompt support.')
_LATER_WANT = re.compile(r"\b(?:also|another|too|as well|now|next|but|though|however|wrong|mistake|incorrect|actually|"
                         r"needs?|wants?|should|could|would|so (?:she|he|they|i|we))\b", re.IGNORECASE)


# 'Thank you so much for checking', 'Oh thank goodness': thanks for what was just done, relief
_THANKED_FOR = re.compile(r"\b(?:(?:thanks|thank you|thank u|ty)(?: so much| very much| a lot)? for (?:\w+ing)\b"
                          r"(?: (?:it|that|this|me|us|for me))?|thank (?:goodness|god|heavens)|phew)", re.IGNORECASE)


def only_thanks(text: str) -> bool:
    """'ok good, thank u', 'great thx', 'Oh thank goodness. Thank you so much for checking.': thanks in
    the words of a closing, asking for nothing (a thanks alone, mid-task, is no goodbye either: see
    :func:`is_closing`)."""
    words = tokens(_THANKED_FOR.sub(" thanks ", text))
    return bool(set(words) & THANKS) and all(w in _CLOSING_WORDS for w in words)


# 'I was in Paris once', 'I love New York', 'my cat loves snacks': a remark about oneself, not an
# answer ('I'd like it at the Grand Hotel', 'I'm Ana Lopez', 'my name is ...' are answers)
REMARK = re.compile(
    r"^\s*(?:(?:ugh|oh|well|haha+|lol|wow|hmm+|honestly|tbh|ngl|seriously|man|god)[\s,.!]+)*(?:i|we|you|you're|my|our|they|he|she)\b"
    r"(?!\s*(?:'m|am|'d|would|want|wanna|need|prefer|will|'ll|'ve|name|address|number|email|wish|plan|planning|"
    r"hope|hoping|think|guess|expect|intend|also|just|only|really|have|got|gotta|must|should|can|could|may|might|"
    r"do|don't|shall|are|re|'re)\b)(?!(?:'s| is| was|s) (?:called|named)\b)"  # ('he's called Tom Hughes' names him)
    # ('My tenancy reference is TN-40217', 'our postcode is ...': one's own details, given)
    r"(?!\s+(?:[\w-]+\s+){0,2}(?:reference|ref|number|id|code|postcode|zip|address|name|email|dob|date of birth)\b)"
    r"|^\s*(?:lovely|nice|beautiful|awful|terrible|such|what a)\s+[a-z]",  # 'lovely weather in Paris'

    re.IGNORECASE,
)
# 'move 100 of it to checking', 'take it out of that one': a value of the task before, by pronoun
OF_IT = re.compile(r"\b(?:of|from|out of|off) (?:it|that|there|that one|this one)\b", re.IGNORECASE)
# 'hello there', 'good morning!': a greeting and nothing else
GREETING = re.compile(r"^\s*(?:hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening))(?: there| again)?[\s!.,]*$",
                      re.IGNORECASE)
# 'how r u', "how's it going", 'how have you been': asking after the assistant, not about a task
_HOW_ARE_YOU = re.compile(r"\bhow(?:'?s| is| are| r| ya)? (?:(?:are|r) )?(?:(?:you|u|ya|it going|things)(?: doing)?|(?:your|ur|ya) day(?: going)?)\b"
                          r"(?!\s+(?:going to|gonna|able|planning|doing (?:it|that|this)))"
                          r"|\bhow have (?:you|u) been\b|\bwhat'?s up\b(?!\s+with)|^\s*sup\b"
                          # 'morning! hope youre well': wishing the assistant well asks after it too
                          r"|\bhope (?:you'?re|youre|you are|u r|ur|u'?re|you'?ve been|all'?s|everything'?s) "
                          r"(?:well|good|ok|okay|doing (?:well|ok|okay|good)|keeping well|fine)\b"
                          # ("hey there, hope your morning's going well :)", 'hope ur day is going ok')
                          r"|\bhope (?:your|ur|ya) (?:day|morning|afternoon|evening|week|weekend)(?:'s| is)? (?:going|been)? ?"
                          r"(?:well|good|ok|okay|great|fine)\b", re.IGNORECASE)
# what may be said around it ('haha sorry long day, how r u anyway?', 'hey how are you today?')
_CHAT_WORDS = frozenset("""
    haha hahaha lol sorry long day today anyway anyways hey hi hello hiya oh well ok okay so good morning evening
    afternoon btw tired busy crazy week been it's its this that doing going today's there again mate buddy
""".split())


# 'haha sorry, crazy busy day here': laughter first, about the talk itself
LAUGHS = re.compile(r"^\s*(?:lol|lmao|haha+|hehe+|ha ha)\b", re.IGNORECASE)
# 'honestly my back is killing me today lol': laughter last, the same
LAUGHS_LAST = re.compile(r"[\s,.!]+(?:lol|lmao|haha+|hehe+|ha ha|xd)[\s.!]*$", re.IGNORECASE)


def asks_after_you(text: str) -> bool:
    """Asking after the assistant with nothing else said ('hey how r u today?')."""
    asked = _HOW_ARE_YOU.search(text)
    if asked is None:
        return False
    rest = text[: asked.start()] + " " + text[asked.end():]
    if all(w in _CHAT_WORDS or w in STOPWORDS for w in tokens(rest)):
        return True
    # ('haha sorry my cat is on the keyboard. hows your day going': a laughing remark first, asking for nothing)
    before, after = text[: asked.start()], text[asked.end():]
    return bool(LAUGHS.match(before)) and bool(re.search(r"[.!,]\s*$", before)) and not REQUEST_ANYWHERE.search(before) \
        and all(w in _CHAT_WORDS or w in STOPWORDS for w in tokens(after))


# 'haha you're quick today', 'wow ur a lifesaver': a remark on the assistant, and nothing more
_ON_YOU = re.compile(
    r"^\s*(?:(?:lol|lmao|haha+|hehe+|ha ha|wow|omg|aw+|oh)[\s,!.]*)*(?:you'?re|you are|ur|u r|u'?re)\s+"
    r"(?:so\s+|really\s+|very\s+|pretty\s+|super\s+|such\s+an?\s+|an?\s+)?(?:quick|fast|funny|great|awesome|the best|"
    r"amazing|smart|clever|helpful|good|brilliant|star|legend|speedy|efficient|lifesaver|life saver|lovely|kind|sweet|"
    r"hilarious|gem|champ)\b(?:\s+(?:today|tonight|this morning|btw|lol|haha+|thanks|thank you|mate|man|at this))*[\s.!]*$",
    re.IGNORECASE)


def remarks_on_you(text: str) -> bool:
    """A remark on the assistant ('haha you're quick today'): its 'today' is no date for the task."""
    return bool(_ON_YOU.match(text))


# "lol this is so much easier": an utterance that opens with small talk and asks for nothing
SMALL_TALK_LEAD = re.compile(
    r"^\s*(lol|haha+|hehe|thanks|thank you|great|cool|nice|awesome|wow|perfect|cheers|brilliant|lovely)\b",
    re.IGNORECASE,
)
# "no wait, keep it": a yes/no word first answers the yes/no question being asked
# 'no, the date', 'not quite, the name's wrong', 'hmm nope': a no that may go on to say what is wrong
NO_LEAD = re.compile(
    r"^\s*(?:(?:hmm+|um+|uh|well|oh|ah|sorry|actually|on second thoughts?|wait|hold on|hang on)[\s,]+)*(?:no|nope|nah|naw|not quite|not exactly|not really|"
    r"that'?s (?:wrong|not right|not correct)|wrong)\b[\s,.!-]*(?P<rest>.*)$", re.IGNORECASE
)
YES_NO_LEAD = re.compile(
    r"^\s*(?:yes|yeah|yep|yup|sure|ok|okay|no|nope|nah)\b[\s,.!-]*(?P<rest>.*)$", re.IGNORECASE
)
# ... after a word that leads it ('actually no, keep it - the client meeting is back on.')
LED_NO = re.compile(r"^\s*(?:actually|oh|ah|well|um+|hmm+|wait)[\s,]+(?:no|nope|nah)\b[\s,.!-]*(?P<rest>.*)$", re.IGNORECASE)
# 'are there any buses to Boston?': asking whether things exist is asking to look them up
# 'do you fly to Honolulu?', 'does your airline go to Lima?': whether the service covers something
_SERVICE_LEAD = (r"^\s*(?:(?:hmm+|um+|so|and|oh|wait|also|quick question|out of curiosity|just wondering|by the way|btw|cheers|hey|"
                 r"before i (?:answer|reply|go on))[\s,.!]+)*")
SERVICE_QUESTION = re.compile(
    _SERVICE_LEAD + r"(?:do|does) (?:you|u|y'all|your \w+|the \w+)(?: lot| guys| all| folks)?\s+"
    r"(?![^?]*\b(?:my|our)\b)"  # ('ok, do you have my booking?' asks about one's own)
    r"(?!know\b|remember\b|think\b|mind\b|want\b|need\b)\w+"
    # 'might I ask whether you fly to Edinburgh at all?': the same question, asked the long way round
    r"|" + _SERVICE_LEAD + r"(?:(?:might|may|can|could) i ask(?: you)?|i (?:was |am |'m )?wonder(?:ing)?|(?:can|could) you tell me)"
    r"\s+(?:whether|if)\s+(?:you|u|y'all)(?: lot| guys| all| folks)?\s+(?![^?]*\b(?:my|our)\b)"
    r"(?!could\b|would\b|can\b|will\b|might\b|may\b|have\b|know\b|remember\b|mind\b)\w+"
    # 'is Sydney somewhere you fly?', 'is Lima a place you go to?'
    r"|^\s*(?:is|are)\b.*\b(?:somewhere|anywhere|a (?:place|city|destination)|one of the (?:places|cities))\s+"
    r"(?:that\s+)?(?:you|u|y'all)\s+(?:fly|go|travel|serve|cover|operate)\b"
    # 'is Melbourne on your route map?', 'is Nice on the list of places you serve?'
    r"|^\s*(?:is|are)\s+(?!my\b|our\b|his\b|her\b|their\b).*\b(?:on|in) (?:your|the) (?:\w+ )?(?:map|list|network|routes?|destinations)\b"
    # ('is Barcelona one of your destinations?')
    r"|^\s*(?:is|are)\s+(?!my\b|our\b|his\b|her\b|their\b)[^?]*\b(?:one of|among) your (?:\w+ )?"
    r"(?:destinations|cities|routes|airports|places|stops)\b",
    re.IGNORECASE,
)
EXISTENTIAL = re.compile(
    r"\b(?:is there|are there|do you have|have you got|can i get|could i get|can you find|any (?:\w+ )?available|"
    r"any others?|anything else|what else|(?:any|some|the)? ?other (?:\w+ )?options?|something else|more options|"
    r"another one|any more)\b",
    re.IGNORECASE,
)
# 'lovely weather today, isn't it': a tag question asks, though it has no question mark
_TAG_QUESTION = re.compile(
    r",\s*(?:isn't|aren't|don't|doesn't|wasn't|weren't|won't|can't|haven't|right|no|yes|eh)"
    r"(?:\s+(?:it|they|you|we|he|she|there|i|that))?\s*[?.!]*\s*$",
    re.IGNORECASE,
)


# 'hmm not sure about the date yet, i'll get back to you': no answer yet, and no new request
UNSURE = re.compile(
    r"^\s*(?:(?:hmm+|um+|uh+|well|oh|erm+)[\s,]+)*(?:i'?m\s+|i am\s+|i\s+)?(?:not sure|unsure|don'?t know|dunno|no idea)"
    r"(?:\s+(?:about|of|on|what|which|when)\s+[^,.;!?]+)?(?:\s+yet)?"
    r"(?:\s*[,.;!-]+\s*(?:" + LATER_TAIL + r"|let me (?:check|think|see|ask)[^,.;!?]*))?[\s.!]*$", re.IGNORECASE)
# 'i need chicago to boston on the 13th': asking to have something, not whether it exists
# the greetings and fillers a wish may open with ('hi, i need ...', "g'day mate, need a flight ...")
_GREETING_LEAD = r"hi|hey|hello|ok|okay|so|um+|hmm+|right|g'?day|gday|mate|morning|yo"
WANTS = re.compile(r"^\s*(?:(?:" + _GREETING_LEAD + r")[\s,]+)*" + WE + r"\s*(?:'d like|would like|"
                   r"(?:'ll |will |'m going to |am going to )?(?:" + NEED + r"|" + WANT + r")|"  # ('so i'll need a flight ...')
                   r"wanna|'m after|am after|'m looking to|am looking to|'re looking to|are looking to|"
                   r"gotta|(?:'ve |have )?got to|have to)\b"  # ('i gotta get to chicago')
                   # ('My boss needs to get from New York to Los Angeles on the 19th': wanted for someone else)
                   r"|^\s*(?:(?:" + _GREETING_LEAD + r")[\s,]+)*(?:my|our) (?:" + KIN + r")\s+"
                   r"(?:needs|wants|has to|has got to|'d like|would like)\b"
                   # ('can you get me to chicago', 'have to get to LA asap'): getting there asked for
                   r"|^\s*(?:(?:" + _GREETING_LEAD + r")[\s,]+)*(?:(?:can|could|would|will) (?:you|u) "
                   r"(?:get|take|fly) (?:me|us)|(?:have to|gotta|got to|need to) get)\b"
                   # ('Need flt BOS to ORD', 'FYI also need status on BK-31337'): wanting, texted without the 'I'
                   r"|^\s*(?:(?:" + _GREETING_LEAD + r"|fyi|also|and|just|pls|please)[\s,:]+)*"
                   r"(?:" + NEED + r"|" + WANT + r"|wanna)\b(?!\s*[?.!]*$)", re.IGNORECASE)
# 'i prefer window seats', 'we'd rather fly early', 'my usual preference is aisle': a preference stated
# (not 'i need ...', 'i like the movie ...': a want or a remark that the request after it serves)
STATES_A_WISH = re.compile(r"^\s*(?:(?:hi|hey|hello|ok|okay|so|um+|hmm+|oh|also|and)[\s,]+)*"
                           r"(?:i|we)(?:'d| would)?\s+(?:always\s+|usually\s+)?(?:prefer|rather)\b"
                           r"|^\s*(?:my|our) (?:usual )?(?:\w+ )?preference\b", re.IGNORECASE)
# 'what flights have I got coming up?', 'which appointments do we have': asking about one's own things
OWNED = re.compile(r"\b(?:have|has)\s+(?:i|we)\s+got\b|\b(?:do|did)\s+(?:i|we)\s+(?:already\s+|currently\s+)?have\b(?!\s+to\b)|"
                   r"\b(?:i|we)(?:'ve|\s+have)\s+got\b(?!\s+(?:to|you|u|ya)\b)|"  # (not 'while I've got you')
                   r"\b(?:booked|reserved|scheduled)\s+(?:under|in)\s+(?:my|our)\s+name\b"  # 'whats booked under my name'
                   # 'which classes am i down for?', 'what am i booked onto', 'what are we signed up for'
                   r"|\b(?:am\s+i|are\s+we|is\s+(?:my|our)\s+\w+)\s+(?:(?:currently|already|still)\s+)?(?:down|booked|signed\s+up|"
                   r"registered|enrolled|entered|put\s+down)\s+(?:for|on|onto|in|into|to)\b(?!\s+(?:a|an|another|the\s+next)\b)"
                   r"|\b(?:what time|when)\s+(?:is|was)\s+(?:my|our)\s+\w+|\b(?:what time|when)\s+(?:my|our)\s+\w+\s+(?:is|was)\b",
                   re.IGNORECASE)
# 'we'd like to know whether our reservation is confirmed', 'I was wondering if ...': asked in a statement
_INDIRECT_QUESTION = re.compile(
    r"\b(?:(?:would|'d) like to know|wants? to know|wanted to know|needs? to know|wondering|wonder|let me know|lmk|"
    r"(?:can'?t|cannot|don'?t) (?:remember|recall)|forgot|forget|"  # ('I can't remember what time my appointment is')
    r"(?:need|want|wanna|like) (?:to|2) (?:see|check|find out))\s+"  # ('need 2 see whats up with my trip bk-31337')
    r"(?:whether|if|when|what|whats|what's|where|how|which|who|why)\b(?!\s+(?:i|we|you|u|someone)\s+(?:could|can|might|may)\b)"
    # ('tell me what time BK-12345 leaves'; 'tell me if fares drop' asks to be told later)
    r"|\btell me (?:what|whats|what's|where|which|who|why)\b"
    # ('just tell me when that flight leaves'; not 'tell me when fares drop', to be told later)
    r"|\btell me when (?:[\w'-]+\s+){1,4}?(?:leaves|departs|arrives|lands|is|opens|closes|starts)\b",
    re.IGNORECASE)  # ('I was wondering if I could book ...' asks for something)


# 'is it possible to change the date after i've paid?', 'if i cancel the day before is that ok?',
# 'should we still come in?', 'can i move it online or do i have to ring?': what the service allows,
# asked of a task in general, not a request to do it
_ASKS_WHAT_IS_ALLOWED = re.compile(r"\bshould (?:i|we) still\b|\bor (?:do|would|will) (?:i|we) (?:have|need) to\b"
                                   # ('may I keep my walking stick with me in the cabin, or must they go in the hold?')
                                   r"|\bor (?:must|should|do|does|would|will) (?:i|we|they|it|he|she) (?:go|be|have|need|stay)\b"
                                   # ('I was wondering how much luggage I am allowed to bring')
                                   r"|\b(?:i am|i'm|im|we are|we're) (?:allowed|permitted) to\b"
                                   # ('r we allowed to take a boat out without an adult?', 'are dogs allowed on the boats?')
                                   r"|\b(?:are|r|am|is|can) (?:we|i|u|you|kids|children|dogs|pets|under[ -]?\d+s?|teenagers|minors)"
                                   r" (?:allowed|permitted)\b"
                                   # ('is there a minimum age for the motorboats?': a limit the service sets)
                                   r"|\b(?:is there|are there|what(?:'s| is)(?: the)?) (?:a |an |any )?(?:minimum|maximum|min|max|lower|upper)"
                                   r" (?:age|height|weight|number|group size)\b|\b(?:is there|are there) (?:an? |any )?age (?:limit|restriction|requirement)s?\b"
                                   # ('does the hoist need booking?', 'do the classes have to be booked ahead?')
                                   r"|^\W*(?:\w+\W+){0,3}?(?:does|do) (?:the|a|an|your) [\w ]{2,30}? (?:need|have) (?:to be )?"
                                   r"(?:booking|booked|reserving|reserved)\b"
                                   # ('what happens if I have to pull out of a lesson last minute, do I lose my money?')
                                   r"|^\W*(?:\w+\W+){0,3}?what (?:happens|would happen|will happen|if) (?:if |when )?(?:i|we|you|my|our|"
                                   r"someone|they|he|she)\b"
                                   # ('can my 13 year old watch the long quiet?': an age, asked whether it may)
                                   r"|\b(?:can|could|may|is) (?:my|our|a|an) \d+[ -]?(?:year|yr)[ -]?old(?: \w+)? (?:watch|see|go|come|"
                                   r"attend|get in|be admitted|fly|travel|join|allowed)\b"
                                   # ('hang on, is there a charge for cancelling?': the service's own rules)
                                   r"|\b(?:is there|are there|will there be|would there be|do you charge|do i have to pay) "
                                   r"(?:a |an |any )?(?:charge|fee|cost|penalty|fine|extra)s?(?: \w+)? (?:for|if|to|when)\b", re.IGNORECASE)
# ... in words a request may end on too ('i'd like to cancel my booking, is that ok?' asks to cancel)
_MAY_ASK_WHAT_IS_ALLOWED = re.compile(
    r"\b(?:is|would) it (?:be )?(?:possible|ok|okay|alright|fine|allowed) (?:to|if)\b"
    # ('are children allowed to travel on their own?', 'is my son allowed in?', 'do you allow dogs?')
    r"|^\W*(?:\w+\W+){0,4}?(?:am|are|is)\s+(?:[\w']+\s+){0,3}?allowed\b|\bdo (?:you|they) (?:allow|accept|take)\b"
    r"|\b(?:is|would) (?:that|this) (?:be )?(?:ok|okay|alright|fine|a problem|allowed)\s*\??\s*$"
    # 'and can my husband come with me?', 'could a friend sit in?': whether someone else may come
    r"|^\W*(?:(?:and|so|but|also|oh)\s+)?(?:(?:one thing|quick question|btw)[\s,]+)?(?:can|could|may) "
    r"(?:(?:my|our|a|the) (?:\d+[ -]?(?:year|yr)[ -]?old|\w+)|she|he|they) "  # ('can my 13 year old watch the long quiet?')
    r"(?:come|attend|join|stay|watch|see|sit in|sit with|stay with|come in|be there|be with|go in|get in)\b"
    # ('will the boys be able to sit next to me on the plane?': whether others may do something)
    r"|\b(?:will|would|can|could) (?:he|she|they|(?:my|our|the|his|her) \w+) be able to\b", re.IGNORECASE)


def asks_what_is_allowed(text: str, strongly: bool = False) -> bool:
    """Whether ``text`` asks what the service allows: for sure ('if my son is poorly on the day can i
    cancel?', 'should we still come in?', '... or do i have to ring?'), or, unless ``strongly``, in words
    a request may end on too ('is it possible to change the date after i've paid?', '... is that ok?')."""
    if not is_question(text):
        return False
    return bool(_ASKS_WHAT_IS_ALLOWED.search(text) or _CONDITIONAL_QUESTION.search(text)) \
        or not strongly and bool(_MAY_ASK_WHAT_IS_ALLOWED.search(text))


# 'What does that mean, please?', "what does 'check in' mean?", 'what is meant by a layover?': what a word means
_ASKS_MEANING = re.compile(r"\bwhat (?:does|do|did) (?:that|this|it|those|these|[\"'‘“][^\"'’”]{1,30}[\"'’”]|the word \w+)"
                           r"(?: \w+)? mean\b|\bwhat(?:'s| is) (?:meant by|the meaning of)\b|\bwhat (?:is|are) (?:a|an) [\w-]+\s*\?\s*$",
                           re.IGNORECASE)


def asks_what_it_means(text: str) -> bool:
    """Whether ``text`` asks what a word or a thing said means ('my son tells me I must check in. What does that mean?')."""
    return bool(_ASKS_MEANING.search(text))


# 'if i cancel my flight do i get my money back': a condition, then the question
_CONDITIONAL_QUESTION = re.compile(
    r"^\s*(?:(?:and|so|but|also|oh|ok|okay|btw)[\s,]+)*if\s+\w+\s+\w+[^?,]*?\s(?:do|does|can|will|is|are|am|should)\s+"
    r"(?:i|we|you|u|it|they|there|my|the|that|this)\s+\w+", re.IGNORECASE)


# 'hmm how long is the wait at old town right now? maybe i'll just walk in': a question first, then a remark
_ASKED_FIRST = re.compile(r"^\s*(?:(?:hmm+|um+|uh+|oh|ok|okay|so|and|well|also|btw|by the way|quick (?:question|q)|hi|hey|hello|hiya|"
                          r"sorry|actually|wait|hang on|hold on)[\s,.:-]+)*"
                          + _QUESTION_WORDS + r"[^?]*\?\s+\S", re.IGNORECASE)


_ASKING = re.compile(r"^\s*(?:(?:hmm+|um+|uh+|oh|ok|okay|so|and|but|well|also|btw|by the way)[\s,]+)*(?:" + _ASKS
                     + r"|do|does|did|is|are|am|was|were|can|could|will|would|should|shall|may|might|have|has|any)\b",
                     re.IGNORECASE)


def is_tentative(text: str) -> bool:
    """'tomorrow after school, like 4pm?', 'Paris?': an answer said with a question mark; no part
    of it asks anything."""
    stripped = text.strip()
    return stripped.endswith("?") and not any(_ASKING.match(c) for c in _CLAUSE.split(stripped.rstrip("?")) if c.strip()) \
        and not _ASKED_INSIDE.search(stripped)


# 'if i cancel do i get my money back?': a question asked inside the sentence
_ASKED_INSIDE = re.compile(r"\b(?:do|does|did|can|could|will|would|is|are|am|should)\s+(?:i|you|u|we|it|they|there|my)\b",
                           re.IGNORECASE)


def _asks_after(text: str, at: int) -> bool:
    """Whether ``text`` wants or requests something after position ``at`` ('... also I want to book a session')."""
    return bool(_WANTS_AFTER.search(text, at) or REQUEST_ANYWHERE.search(text[at:]))


def is_question(text: str) -> bool:
    """A question: a question mark, a question word first, a tag question at the end, or one
    asked in a statement ('I'd like to know whether ...')."""
    stripped = text.strip()
    if stripped.endswith("?") or _ASKED_FIRST.match(stripped) or QUESTION_START.match(stripped) or _TAG_QUESTION.search(stripped) \
            or _INDIRECT_QUESTION.search(stripped) or _CONDITIONAL_QUESTION.match(stripped) or _ANY_LEFT.match(stripped):
        return True
    # 'is AP-1002 at northgate or riverside? i forgot lol': a first sentence asked, then a remark
    first = re.match(r"[^?.!]*\?", stripped)
    if first and _ASKED_OF_A_THING.match(first.group()):
        return True
    # 'Before I say yes, dear, will I get all my money back? My pension ...': a later clause of it asks (not 'ok,
    # can I book it now? thanks', a favour asked), and nothing after it asks for a task
    if first and any(_ASKED_OF_A_THING.match(c) and not _FAVOUR.match(c) for c in first.group().split(",")[1:]) \
            and not _asks_after(stripped, first.end()):
        return True
    # 'before I pick a day... will I be awake for it? the idea of it scares me': a later sentence asks, and
    # nothing after it asks for a task
    later = next((m for m in re.finditer(r"(?<=[.!?])[^?.!]*\?", stripped) if _ASKED_OF_A_THING.match(m.group())), None)
    if later is not None and not _asks_after(stripped, later.end()):
        return True
    # 'btw is the water nice and warm? i feel the cold' (not '... also I want to book a session': a request follows)
    if first and _ASKED_ASIDE.match(first.group()) and not _asks_after(stripped, first.end()):
        return True
    # 'just browsing - what are the fares like', 'ok, how much is it': a later clause asks
    return any(QUESTION_START.match(c) and not _EXCLAIMS.match(c) and not REQUEST_ANYWHERE.search(c) and not _RELATIVE.match(c)
               for c in _CLAUSE.split(stripped)[1:])


# 'any flghts frm dallas to houston on dec 9', 'any tables for 4 tonight': asks what there is, with no
# question mark (not 'any time after 5' or 'any days are fine', which answer)
_ANY_LEFT = re.compile(r"^\s*(?:(?:hmm+|um+|oh|ok|okay|so|and|hi|hey|hiya|hello|also|btw)[\s,.:-]+)*any\s+"
                       r"(?!(?:days|times|dates|weekdays|weekends|mornings|afternoons|evenings|nights|ones)\b)\w+s\b"
                       r"(?!.*\b(?:is|are|will|would|works?|suits?|does|do)\s+(?:be\s+)?(?:fine|ok|okay|good|great|alright|do|me|for me)\b)"
                       r"(?!.*\b(?:book|reserve|buy|get me|grab)\b)",  # ('any flights ... under 300 book the cheapest' books)
                       re.IGNORECASE)
# (a first sentence asking about a thing, not a favour: 'can my friends drive the car too? it's RNT-48213',
# nor whether there is more: 'Any other dates? I heard about ...')
_ASKED_OF_A_THING = re.compile(r"^\s*(?:(?:hmm+|um+|oh|ok|okay|so|and|hi|hey|hiya|hello|morning|afternoon|evening)[\s,!.]+)*"
                               r"(?:is|are|was|were|does|do|did|has|have|"
                               r"will|would|should|"  # ('will it come in plain packaging? my neighbours are nosy lol')
                               # ('oh and can I stay in the room with her? she gets a bit muddled'; not 'can you ...')
                               r"(?:can|could|may) (?=i\b|we\b)|"
                               r"what|whats|which|where|wheres|when|whens|who|how)\b", re.IGNORECASE)
_FAVOUR = re.compile(r"\s*(?:can|could|may)\b", re.IGNORECASE)
# ... after a word that turns aside first ('btw is the water warm?', 'quick question, is parking free?')
_ASKED_ASIDE = re.compile(r"^\s*(?:(?:hmm+|um+|oh|ok|okay|so|and|hi|hey)[\s,]+)*(?:btw|by the way|also|quick question)[\s,]+"
                          r"(?:is|are|was|were|does|do|did|has|have)\b", re.IGNORECASE)
_WANTS_AFTER = re.compile(r"\b(?:i|we)(?:'d| would)? (?:want|need|like|wanna)\b|\b(?:book|reserve|cancel|rent)\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[.!;:]+\s*|\s[-–—]+\s*|,\s*")
# 'BK-20481, which you'd know if you were any good': a clause about the thing before it, asking nothing
_RELATIVE = re.compile(r"(?:which|who|whom)\s+(?:i|you|we|he|she|they)(?:'d|'ll|'ve|'re|'m)?\s+\w", re.IGNORECASE)
_EXCLAIMS = re.compile(r"(?:what an?|how (?:nice|lovely|great|kind|cool|awesome))\b", re.IGNORECASE)  # 'what a day'


READ_QUESTION = re.compile(
    r"^\s*(what|which|how many|how much|is there|are there|do you have|have you got|any)\b", re.IGNORECASE
)
# Phrases that carry a dialogue act, not a task: they never speak for a flow ("sounds good, book it":
# only "book it" does; "I changed my mind" is no request to change a booking)
ACT_PHRASES = re.compile(
    r"\b(?:(?:that|this|it)(?:'s| is| was| would be| will be| sounds| looks| seems)?\s+(?:sounds?|looks?|seems?|works?|is)?\s*"
    r"(?:real |really |very |pretty |so |super |quite |just )?"
    r"(?:good|great|fine|perfect|nice|wonderful|awesome|excellent|ok|okay|alright|correct|right|cool|lovely)(?:\s+(?:to|for) me)?"
    r"|(?:that |it |this )?works (?:for|with) me|fine (?:by|with) me|(?:that's |that is )?(?:terrific|fantastic|superb|splendid|"
    r"amazing|brilliant|marvelous|wonderful)"
    r"|sounds? (?:real |really |very |pretty |so |super |quite |just )?(?:good|great|fine|terrific|fantastic|amazing||perfect|nice|wonderful|awesome|excellent|ok|okay|alright|right|correct|cool|lovely)(?:\s+(?:to|for) me)?"
    r"|(?:that|this)(?:'s| is| was| will| would)? (?:all|it|everything)(?: (?:i|we) (?:need|needed|wanted|want))?(?: for (?:now|today))?"
    r"|(?:(?:i|we)(?:'ve| have)? )?changed? (?:my|our) minds?|on second thought|never ?mind|no wait|hold on"
    r"|thanks?(?: you| u| ya)?(?: (?:so|very) much| a lot| a bunch)?(?: for (?:your|the|all (?:your|the)) (?:help|assistance|time))?"
    r"|(?:i )?appreciate (?:it|that|your help)|no problem|you'?re welcome|have a (?:good|great|nice) (?:day|one|night)"
    r"|(?:that|it|this)(?:'s| is| was)? (?:really |very |so )?(?:helps?(?: (?:a lot|a bunch|loads|heaps))?|helped|helpful)"  # ('that helps a lot')
    r"|good ?bye|bye|cheers|(?:yes|yeah|yep|yup|sure|no|nope|nah|ok|okay|alright|great|perfect|cool|awesome|excellent)(?=[\s,.!?]|$)"
    r"|(?:please )?go ahead|let'?s do (?:it|that)|do it|i'?m (?:good|fine|all set)|not (?:now|yet|right now)"
    # 'could you help me book a flight': help as a way of asking, when a task follows it
    r"|(?:(?:can|could|would|will) you (?:please )?)?help (?:me|us)(?: out)?(?: (?:to|with))?(?= [a-z])"
    r"|(?:i'?d )?appreciate (?:your|some) help(?: (?:with|getting|in|to))?(?= [a-z])"
    # 'looking to book chicago to denver': wanting, said with 'looking' (not 'looking for my booking')
    r"|(?:(?:i'?m|i am|we'?re|we are)\s+)?looking to(?= [a-z]))\b",
    re.IGNORECASE,
)


def shift_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` turns away ('before that', 'hold on', 'actually'): no task word in them."""
    return [m.span() for m in SHIFT.finditer(text)]


# 'hi, I can't make it on friday, can you cancel it': the verb a request asks for, anywhere in the turn
_REQUESTED = re.compile(r"\b(?:(?:can|could|would|will) (?:you|u)|(?:can|could) we|(?:can|could|may) i(?= \w+ \w)|please|pls|"
                        r"(?:i|we)(?:'d| would) like to|"
                        r"(?:i|we) (?:" + WANT + r"|" + NEED + r"|wanna|ought) to|(?:i|we) (?:wanna|oughta|had better|'d better)|"
                        # ('I think I have to cancel Bear's bath'; not 'if i have to cancel later', a condition)
                        r"(?<!\bif )(?<!\bwhen )(?<!\bcase )(?<!\bwhether )(?:i|we) (?:(?:have|'ve got|have got) to|gotta|must)|"
                        # ('Grandma says she wants to book a flight to Chicago': wanted for someone else, typed for them)
                        r"(?:she|he|they) (?:wants|needs|would like|'d like|has|have) to|"
                        r"^\s*(?:" + WANT + r"|" + NEED + r") to|^\s*wanna)"  # ('need to reschedule my plasma appt')
                        # (and the verb's particle, one of PARTICLES: 'call off')
                        r"\s+(?:please\s+)?(?:just\s+)?(?P<verb>[a-z]+)\b(?:\s+(?P<particle>off|up|out|back|over|down|in)\b)?",
                        re.IGNORECASE)


PARTICLES = frozenset({"off", "up", "out", "back", "over", "down", "in"})


# 'Could it be moved to the 20th instead?', 'can my appointment be cancelled': a request put in the passive
PASSIVE_REQUEST = re.compile(r"\b(?:can|could|would|will) (?:it|that|this|they|(?:my|the|our|his|her|their) [a-z-]+) "
                             r"(?:please |possibly |just )?be (?P<verb>[a-z]+ed)\b", re.IGNORECASE)


def requested_verbs(text: str) -> set[str]:
    """The verbs the turn asks for after 'can you', 'please', 'I want to': 'cancel'; a verb with its
    particle too ('can you call off my casting': 'call' and 'call off'); the verb of a passive request
    ('could it be moved': 'move', 'mov', with the pack's verbs to say which is one)."""
    found = set()
    for m in PASSIVE_REQUEST.finditer(text):
        said = m["verb"].lower()
        found |= {said[:-1], said[:-2]} | ({said[:-3]} if said[-3] == said[-4] else set())  # moved, booked, cancelled
    for m in _REQUESTED.finditer(text):
        found.add(m["verb"].lower())
        if m["particle"]:
            found.add(f"{m['verb']} {m['particle']}".lower())
    return found


_DONE_TO = re.compile(r"\s+(?:(?:the|a|an|my|our|his|her|their|this|that|another|new|first)\s+){0,2}(?P<things>[a-z]+(?:\s+[a-z]+)?)",
                     re.IGNORECASE)


def requested_things(text: str, heads: bool = False) -> set[tuple[str, str]]:
    """The verbs the turn asks for with the words of the thing each is done to ('I'd like to book the
    assessment': ('book', 'assessment')); the thing's first two words, each, or with ``heads`` the
    word that names it ('my flight details': 'details', 'my bp check': 'check')."""
    found = set()
    for m in _REQUESTED.finditer(text):
        things = _DONE_TO.match(text, m.end())
        if things is None:
            continue
        words = [w.lower() for w in things["things"].split()]
        if heads:
            words = [w for w in words if w not in STOPWORDS][-1:]
        found |= {(m["verb"].lower(), w) for w in words}
    return found


def grammatical_numbers(text: str, definite: bool = False) -> dict[str, frozenset[str]]:
    """For each stem of ``text``, whether it is said of one thing, of many, or both: 'my trips'
    names several ('many'); 'status' and 'class' are no plurals. With ``definite``, a singular
    counts as one thing only after 'my', 'the', 'this' ... and not as a modifier of the next word
    ('is my reservation still on?', not 'my booking history', 'every booking', 'the lowest price')."""
    out: dict[str, set[str]] = {}
    words = tokens(text)
    for i, token in enumerate(words):
        low = token.lower()
        if low.endswith("ed"):
            continue  # 'booked' counts nothing
        many = len(low) > 3 and low.endswith("s") and not low.endswith(("ss", "'s", "us", "is")) \
            and stem(low[:-1]) == stem(low)
        if definite and not many:
            before = words[i - 1].lower() if i else ""
            after = words[i + 1].lower() if i + 1 < len(words) else ""
            if before not in _DEFINITE or after and after not in STOPWORDS and after not in _AFTER_A_THING:
                continue
        out.setdefault(stem(low), set()).add("many" if many else "one")
    return {s: frozenset(n) for s, n in out.items()}


_DEFINITE = frozenset({"my", "our", "the", "this", "that", "your"})
_AFTER_A_THING = frozenset({"still", "please", "pls", "ok", "okay", "confirmed", "go", "going", "look", "looking",
                            "again", "today", "now"})


# 'let me check the booking before i change it': a clause that only says when, naming a task
# the speaker means to do later (or did), not the one asked for now
# (up to the main clause: 'before we go any further I should check her other booking')
_WHEN_CLAUSE = re.compile(r"\b(?:before|after|once|until|till)\s+(?:i|we)\b(?:'ll|'ve|'d)?"
                          r"(?:(?!\s(?:i|we)(?:\s+(?:should|shall|must|need|want|will|would|have to|better|oughta|ought|reckon|"
                          r"think|guess|gotta|got to)|'ll|'d)\b)[^,.;:!?\-–—])*"
                          # ('my email address is ..., should you need to send me anything': a condition, no request)
                          r"|\b(?:should you|if you(?: ever)?|in case you)\s+(?:need|want|have)\s+to\b[^,;:!?]*",
                          re.IGNORECASE)


def when_clause_spans(text: str) -> list[tuple[int, int]]:
    """Where a request says when with a clause of its own ('let me check the booking before i change
    it'); in a question the clause is what is asked about ('can I eat before I come in for a patch test?')."""
    if is_question(text) and not (REQUEST_START.match(text) or _SEE_REQUEST.match(text)):
        return []
    return [m.span() for m in _WHEN_CLAUSE.finditer(text) if m.start() > 0]


_SEE_REQUEST = re.compile(r"^\s*(?:(?:can|could|may) (?:i|we) (?:please )?(?:see|get|have|look at))\b", re.IGNORECASE)


# 'window seats if possible', 'ideally an aisle seat': a wish that comes with a request, in a clause of its own
_WISH_WORD = re.compile(r"\b(?:if possible|if you can|if poss|ideally|preferably|if available|if there(?:'s| is) one)\b",
                        re.IGNORECASE)
# ('fly London to Paris on the 15th, we'd both prefer a window seat': a wish for the request said before it; 'I
# prefer aisle seats' is a standing preference, "I'd prefer to cancel", "i'd prefer an afternoon session" the request)
_PREFERRED_AFTER = re.compile(r"(?<=[,.;!?-])[^,.;!?-]*\b(?:i|we)(?:'d| would)(?: both| all| really| much| rather)? prefer\b"
                              r"(?:(?!\band (?:i|we)\b)[^,.;!?-])*", re.IGNORECASE)
# (to the clause's end: a new clause with its own subject asks for itself, '... and I might need 4 tickets')
_WISH = re.compile(r"(?:^|(?<=[,.;!?-]))[^,.;!?-]*" + _WISH_WORD.pattern + r"(?:(?!\band (?:i|we)\b)[^,.;!?-])*",
                   re.IGNORECASE)
# 'could I ...', 'cancel my appointment', 'tell me if it's safe': a clause that asks for something itself
_ASKS_ITSELF = re.compile(r"^(?:(?:could|can|may) i\b|\w+ (?:me|my|us|our)\b)", re.IGNORECASE)


def _asks_itself(clause: str) -> bool:
    return bool(ORDER.match(clause) or QUESTION_START.match(clause) or is_question(clause) or WANTS.match(clause)
                or REQUEST_ANYWHERE.search(clause) or _ASKS_ITSELF.match(clause))


def wish_spans(text: str) -> list[tuple[int, int]]:
    """The clauses that add a wish to a request ('..., so two people. window seats if possible'): their
    words name no task; none when the wish is all that is said, or asks for something itself ('Look
    for a hotel there if you can')."""
    spans = [m.span() for m in _WISH.finditer(text) if not _asks_itself(_WISH_WORD.sub(" ", m.group()).strip())]
    if len(spans) == 1 and not text[:spans[0][0]].strip() and not text[spans[0][1]:].strip(" .!"):
        spans = []
    return [*spans, *(m.span() for m in _PREFERRED_AFTER.finditer(text) if names_something(text[:m.start()]))]


def requested_verb_spans(text: str) -> list[tuple[int, int]]:
    """Where those verbs are: 'check' of 'Please check Albany' is the request, not the value."""
    return [m.span("verb") for m in _REQUESTED.finditer(text)]


# 'leaving from New York', 'heading to Denver': a verb that only points at the value after it
_VALUE_LEAD = re.compile(r"\b(?:leaving|departing|heading|going|coming|returning|travell?ing)(?:\s+(?:back|out|over))?"
                         r"\s+(?:from|to|out of|into|towards|for|in|at)\s*$", re.IGNORECASE)


def value_lead_spans(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The words just before each value span that only point at it ('leaving from' of 'leaving from
    new york'): they name no task ('when does my flight leave?' does)."""
    return [m.span() for m in (_VALUE_LEAD.search(text[:start]) for start, _ in spans) if m is not None]


def free_of_charge(text: str) -> str:
    """``text`` with 'free' read as 'cost' where it means no charge ('free for over 65s', 'for free',
    'free of charge'), not an open time ('is friday free'); same length, so spans stay where they are."""
    return _FREE_OF_CHARGE.sub(lambda m: "cost" if m.group().islower() else "Cost" if m.group()[0].isupper() else "COST", text)


_FREE_OF_CHARGE = re.compile(
    r"\bfree(?=\s+(?:for|to)\s+(?:over|under|anyone|everyone|everybody|kids|children|pensioners|students|seniors|carers|"
    r"pregnant|people|those|the over|the elderly|nhs|\d+s\b|\d+\+)|\s+of charge\b)|(?<=\bfor )free\b",
    re.IGNORECASE)


# 'wat time do u close on sat?': 'what time' asks when, like 'when' (not 'what times are free', nor 'what time slots')
WHAT_TIME = re.compile(r"\b(?:what|wat|wot|which)\s+time\b(?!\s*(?:s\b|slots?|frames?|windows?))", re.IGNORECASE)


# 'he's called Tom Hughes': the words that introduce a name ask for no task (not 'call off')
_NAMING = re.compile(r"\b(?:he|she|they|it|i|we|(?:my|our) \w+)(?:'s|'re|'m| is| are| am| was| were|s) (?:called|named)\b",
                     re.IGNORECASE)


# "she's booked on the van", "I'm already booked in": a booking held, said of oneself, asks for no new one
_BOOKED_ALREADY = re.compile(r"\b(?:i'?m|i am|she'?s|he'?s|she is|he is|we'?re|we are|they'?re|they are|it'?s|it is)"
                             r"\s+(?:already\s+|all\s+)?booked\b", re.IGNORECASE)


# 'please make sure she can get in': an idiom, no making
# ('he says he can make it after all': he can come)
# ("I've never flown before": ever, in one's life, no time before anything; 'he reminded me': he told me, no reminder)
_IDIOMS = re.compile(r"\bmake (?:sure|certain)\b|\b(?:can|could|will|might|'ll)\s+(?:still\s+|now\s+)?make it\b"
                     r"|\b(?:never|ever)\b[^,.;!?]{0,30}?\b(?:before|in my life)(?=\s*(?:[,.;!?]|and\b|but\b|so\b|$))"
                     r"|\breminded (?:me|us|him|her|them)\b",  # ('Harold has just reminded me we're still going': told)
                     re.IGNORECASE)


def idle_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` only introduces a name ('he's called', 'she is named'), says a booking is held
    ("she's booked on the van") or says an idiom ('make sure'): words that speak for no task."""
    return [m.span() for m in (*_NAMING.finditer(text), *_BOOKED_ALREADY.finditer(text), *_IDIOMS.finditer(text))]


def act_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` only says yes, no, thanks or goodbye: those words speak for no flow."""
    return [m.span() for m in ACT_PHRASES.finditer(text)]


APPROVE_COMMAND = re.compile(r"^\s*/approve\s*$", re.IGNORECASE)
DENY_COMMAND = re.compile(r"^\s*/deny\s*$", re.IGNORECASE)

# Words that, before a value, point at a slot whose name or prompt holds one of these.
_RANGE_END = frozenset({"end", "return", "dropoff", "drop", "out", "until", "back", "last", "finish", "inbound"})
_RANGE_START = frozenset({"start", "begin", "pickup", "pick", "in", "from", "departure", "outbound", "leaving"})
# words said before a value that put it at one end of a range: 'leaving this Saturday ... back on
# the 7th', 'from the 4th until the 10th' (also further back than the cue right before the value)
_SAID_START = frozenset({"leave", "leaving", "depart", "departing", "departure", "start", "starting", "from",
                         "beginning", "pick", "pickup", "outbound"})
_SAID_END = frozenset({"return", "returning", "back", "until", "till", "til", "through", "thru", "drop", "dropoff",
                       "ending", "end", "inbound"})


def range_end(name: str) -> str | None:
    """Which end of a range a slot holds, from its name ('return_date' -> 'end', 'check_in_date' ->
    'start'); None for a slot that is no end of a range."""
    for word in name.lower().split("_"):
        if word in _RANGE_START:
            return "start"
        if word in _RANGE_END:
            return "end"
    return None


# a stay (check in / check out) is left at its end: 'arriving today and leaving on the 5th'
_STAY_START = frozenset({"arrive", "arriving", "get", "getting", "checkin", "start", "starting", "from"})
_STAY_END = frozenset({"leave", "leaving", "depart", "departing", "checkout", "until", "till", "til", "through",
                       "thru", "ending", "end"})


def said_end(words: Sequence[str], stay: bool = False) -> str | None:
    """The end of a range that the words before a value point at (the nearest such word wins);
    ``stay``: the range is a stay, which one leaves at its end."""
    starts, ends = (_STAY_START, _STAY_END) if stay else (_SAID_START, _SAID_END)
    for word in reversed(words):
        if word in ends:
            return "end"
        if word in starts:
            return "start"
    return None


CUE_SYNONYMS: dict[str, frozenset[str]] = {
    "from": frozenset({"origin", "source", "from", "departure", "depart", "start", "home", "leaving", "pickup", "pick",
                       "begin"}),
    # ('move DS-2002 from saturday to monday': the new moment of a change is said after 'to')
    "to": frozenset({"destination", "target", "to", "arrival", "arrive", "dest", "into", "new"}),
    "into": frozenset({"destination", "target", "to", "into"}),
    "on": frozenset({"date", "day", "when", "on"}),
    "for": frozenset({"for", "date", "passengers", "people", "count", "destination"}),  # ('a price alert for tokyo')
    "under": frozenset({"max", "price", "budget", "below", "under"}),
    "below": frozenset({"max", "price", "budget", "below", "under"}),
    "by": frozenset({"by", "deadline", "date"}),
    # the two ends of a stay or a rental: 'from the 4th until the 10th', 'returning on the 11th'
    "until": _RANGE_END, "till": _RANGE_END, "til": _RANGE_END, "through": _RANGE_END,
    "returning": _RANGE_END, "return": _RANGE_END, "back": _RANGE_END,
    "starting": _RANGE_START, "beginning": _RANGE_START,
}


TOKEN = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")  # (letters of any alphabet: 'Wiśniewski', 'José' are one word)
# the pronoun 'I' in its forms: written with a capital, it names nothing
I_FORMS = frozenset({"i", "i'm", "i'd", "i'll", "i've", "im", "id"})
# lead-ins before the request itself ("I'd like to book ..."), beside the stopwords
LEAD_INS = frozenset({"i'd", "id", "we'd", "i'll", "we'll", "love", "kindly", "quickly", "pls", "plz", "plse", "pleas"})
# fillers before a request's verb ("hmm, actually cancel it"): the request opens after them
OPENING_FILLERS = frozenset({"hmm", "hmmm", "um", "umm", "uh", "oh", "well", "actually", "alright",
                             "hi", "hiya", "hey", "heya", "hello", "howdy",
                             "nice", "great", "cool", "perfect", "awesome", "lovely", "brilliant", "excellent", "sweet",
                             "ugh", "argh", "eh", "meh", "ah", "ahh", "oops", "whoops", "shoot", "dang", "darn",
                             "righto", "right-o", "gday", "g'day", "cheers", "ta", "okey", "okie", "kk", "mate",
                             # ('sick, book it for 8pm tomorrow', 'oya book am', 'sorted, cancel it')
                             "sick", "dope", "lit", "wicked", "sorted", "oya", "sige", "chale"})


def tokens(text: str) -> list[str]:
    return TOKEN.findall(text.lower())


@lru_cache(maxsize=4096)
def opener(text: str) -> str | None:
    """The word a request opens with, past the lead-ins: 'I'd like to book a flight' -> 'book';
    none when that word follows 'a', 'an', 'the' or 'my' ('i need a check up': a thing, not a verb)."""
    before = None
    for t in tokens(text):
        if t not in STOPWORDS and t not in LEAD_INS and t not in OPENING_FILLERS:
            return None if before in _DETERMINERS else t
        before = t
    return None


_DETERMINERS = frozenset({"a", "an", "the", "my", "our", "your"})


_SNOWBALL = snowballstemmer.stemmer("english")


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """The Snowball (Porter 2) stem: 'bookings'/'booked' meet 'book', 'reservation' meets 'reserve'."""
    w = word.lower().replace("'s", "")
    return _SNOWBALL.stemWord(w) if len(w) > 2 else w


# the stopwords stemmed, for sets of stems ('the number of passengers' names ``passengers``)
STOP_STEMS = frozenset(stem(w) for w in STOPWORDS)


# Everyday words for the same task or thing: a word the pack never uses counts as a synonym the
# pack does use ('drop R-1234' -> cancel, 'hire a car' -> rent, 'a film' -> movie). Both ways.
_VERB_GROUPS = (
    "cancel drop scrap ditch abort annul revoke scrub",  # ('Scrub BK-31337': radio talk)  # (not 'scratch': 'bleeds when he scratches it'; 'scratch that' is a stop word)
    "buy purchase",
    "rent hire lease",
    "reschedule postpone push prepone move displace",  # ('prepone': bring forward, in Indian English; 'displace', French)
    "check verify",  # ('I would like to verify the state of my reservation'; not 'consult', the stem of 'consultation')
    "change switch swap",
    "delete remove erase",
    "transfer wire",
)
_SYNONYM_GROUPS = _VERB_GROUPS + (
    "hour hrs",
    "close shut",
    "baggage bag luggage suitcase",
    "movie film flick",
    "doctor physician doc",
    "flight plane airfare",
    "apartment flat",
    "car vehicle auto",
    "cab taxi",
    "song track tune",
    "restaurant eatery diner",
    "appointment appt visit",
    "hotel motel inn lodging",
    "ticket tix",
    "pet dog cat puppy kitten",
    "partner spouse wife husband",
)
# A keyword phrase said in other everyday words ('still on': 'is my review still happening?')
PHRASE_VARIANTS: dict[str, tuple[str, ...]] = {
    "still on": ("still happening", "still going ahead", "still going on", "still booked", "still scheduled"),
}
# ... and one way only: 'do i have to pay for it?' asks the cost (but 'how much does it cost?' pays nothing)
_SAID_FOR = (("pay", "cost"), ("charge", "cost"))
SYNONYMS: dict[str, tuple[str, ...]] = {}
# the verbs, as written ('postpone' -> 'reschedule', 'push', ...)
VERB_SYNONYMS: dict[str, tuple[str, ...]] = {w: tuple(o for o in g.split() if o != w) for g in _VERB_GROUPS for w in g.split()}
for _group in _SYNONYM_GROUPS:
    _stems = [stem(w) for w in _group.split()]
    for _s in _stems:
        SYNONYMS[_s] = tuple(o for o in _stems if o != _s)
for _said, _meant in _SAID_FOR:
    SYNONYMS[stem(_said)] = (*SYNONYMS.get(stem(_said), ()), stem(_meant))

NEGATORS = frozenset({"not", "without", "don't", "dont", "won't", "wont", "can't", "cant", "cannot", "couldn't", "couldnt",
                      "unable", "isn't", "doesn't", "didn't", "never"})


@lru_cache(maxsize=4096)
def content_stems(text: str) -> frozenset[str]:
    """The words that carry meaning, stemmed; a negated word keeps its 'not-' ('not working')."""
    out: set[str] = set()
    for clause in _NEGATION_STOPS.split(text):  # ('kid is sick, cant go. cancel it': 'cancel' is not negated)
        negate = False
        for t in tokens(clause):
            if t in NEGATORS:
                negate = True
                continue
            if t in STOPWORDS or t.isdigit() or negate and t == "able":
                continue  # ("won't be able to make it": the negation reaches 'make')
            out.add(("not-" if negate else "") + stem(t))
            negate = False
    return frozenset(out)


_NEGATION_STOPS = re.compile(r"[,;!?]|\.(?!\d)")


# words that judge, agree, thank, want or ask to go on, the verbs and things of any task, and the
# words that only hold a turn together: a turn made of nothing else names no value ('Yes, confirmed
# to proceed', 'That suits me well', 'Sounds like a plan', 'Yes, I'd like to make that reservation')
_NAMES_NOTHING = frozenset(stem(w) for w in """
    good great fine perfect nice wonderful awesome excellent alright correct right cool lovely terrific
    fantastic superb splendid amazing brilliant marvelous super reasonable exactly absolutely definitely
    certainly indeed sure true agree agreed fair acceptable ideal suitable convenient helpful happy glad
    pleased satisfied best better well enough totally completely wrong incorrect mistake mistaken outdated
    confirm confirmed proceed continue ahead work works working suit suits fit fits sound sounds seem seems
    look looks like love want need prefer wish take choose pick accept approve mind
    thanks thank grateful appreciate help plan idea choice option options selection everything anything
    nothing else more other another something later time
    book booking reserve reservation make buy purchase schedule play start begin find search show get
    send transfer order set done give gave do did go going maybe pretty quite that this it
    i'd i'm i'll i've you're you'd you'll we'd we're we'll it's that's
    actually just really so well oh um uh ok okay anyway today now
    think thinking guess suppose reckon leave leaving travel travelling traveling fly flying
    they them he she him her until till possible put try trying kindly entirely perfectly wholly satisfactory lot lots
    yes yeah yep yup ya yah yh yeh sure u rite
    """.split()) | frozenset(stem(w) for w in THANKS - {"ty"})  # ('Ty' may be a name)
# a yes that cannot mean anything else (not 'ok', 'right', 'sure': 'right, how much is it?')
CLEAR_YES = frozenset({"yes", "yeah", "yep", "yup", "yea", "correct", "perfect"})
# of those, the words that say yes ('that works for me', 'confirmed')
_SAYS_YES = frozenset(stem(w) for w in CLEAR_YES) | frozenset(stem(w) for w in """
    yes yeah yep yup ya yeh sure ok okay alright good great fine perfect nice wonderful awesome excellent
    correct right cool lovely terrific fantastic superb splendid amazing brilliant marvelous super
    absolutely definitely certainly indeed agree agreed confirm confirmed proceed ahead works suits
    exactly yh rite satisfactory acceptable
    """.split())
_AGREES = _SAYS_YES | frozenset(stem(w) for w in (*THANKS, "sound", "sounds", "thank"))


def agrees_only(text: str) -> bool:
    """'that is good', 'Okay, thank you', 'sounds great': every word agrees, praises or thanks; not a
    question. Such a sentence names no task, even listed among a flow's examples."""
    return bool(tokens(text)) and content_stems(text) <= _AGREES and not is_question(text)  # (the cheap test first)


# words that hold back a yes ('maybe later', 'hold on', 'wait')
_HOLDS_BACK = frozenset({"no", "nope", "nah", "naw", "maybe", "later", "wait", "hold", "hmm", "unsure", "if", "but",
                         "cancel", "stop", "rather", "instead", "another", "other", "else", "think", "thinking",
                         "actually", "change", "different", "over", "sorry", *NEGATORS})


_NAME_INSIDE = re.compile(r"(?<![.!?]\s)(?<![.!?])(?<=[a-z,]\s)(?!I\b|I'|Please\b|Thanks?\b|Yes\b|No\b|Ok(?:ay)?\b)[A-Z][a-z]")


def names_something(text: str) -> bool:
    """Whether ``text`` says anything besides judging, agreeing, thanking, wanting, the verbs of a
    task and fillers: a word of its own or a number ('Yes, please transfer $690')."""
    if any(ch.isdigit() for ch in text) or _NAME_INSIDE.search(text):
        return True  # (and a word written with a capital inside a sentence: 'The Help', 'Start With Why')
    return any(s.removeprefix("not-") not in _NAMES_NOTHING for s in content_stems(text))


_DRAWN_OUT = re.compile(r"([a-z])\1{2,}", re.IGNORECASE)


# a word taken back at once and said again in another ('the 15th of January - sorry, December!'): the second stands
_SELF_REPAIR = re.compile(r"\b(?P<old>[\w']+)\s*[-–—]+\s*(?:sorry|no|i mean|i meant|oops|er+m*|uh)[,\s]+(?P<new>[\w']+)\b"
                          r"(?:\s*[-–—]+(?=\s))?", re.IGNORECASE)
_TASK_VERBS = frozenset("cancel check book change move search find list send set save remind reschedule".split())


def _kind(word: str) -> str | None:
    w = word.lower()
    if w in MONTHS:
        return "month"
    if w in WEEKDAYS:
        return "weekday"
    if w.isdigit() or words_to_number(w) is not None:
        return "number"
    return "verb" if w in _TASK_VERBS else None


def _repaired(m: re.Match[str]) -> str:
    kind = _kind(m["old"])
    return m["new"] if kind is not None and kind == _kind(m["new"]) else m.group()


# a turn typed in capitals throughout, of more than a few words (not 'BK-12345', 'OK', 'NYC to LA')
_SHOUTED = re.compile(r"(?=(?:[^a-z]*\b[A-Z]{2,}\b){4})[^a-z]*")
# texting that stands for a word of the request around it: 'cn i ...', '4 my mum' (not '4 my usual packs',
# nor 'B4 6NH', a postcode)
_TEXTED_WORDS = ((re.compile(r"\bcn(?= (?:i|u|you|we|someone)\b)", re.IGNORECASE), "can"),
                 (re.compile(r"^(\s*)(?:wat|wot|whut)\b", re.IGNORECASE), r"\1what"),  # ('wat flites are their ...')
                 (re.compile(r"\b(are|is) their(?= (?:any|from|to|on|for|in|at|available|left)\b)", re.IGNORECASE), r"\1 there"),
                 (re.compile(r"\b(what) els\b", re.IGNORECASE), r"\1 else"),
                 (re.compile(r"(?<![\d:.$£€])(?<!\bat )(?<!\bby )(?<!\bto )(?<!\btill )(?<!\buntil )(?<!\bfrom )"
                             rf"(?<!\baround )(?<!\babout )\b4(?= (?:my|our|his|her) (?:{KIN})\b)", re.IGNORECASE), "for"),
                 # a greeting drawn out to open the turn: 'hiii', 'hiiiya', 'heyyy', 'heeey', 'hellooo'
                 (re.compile(r"^(\s*)hi{2,}ya+\b", re.IGNORECASE), r"\1hiya"),
                 (re.compile(r"^(\s*)hi{2,}\b", re.IGNORECASE), r"\1hi"),
                 (re.compile(r"^(\s*)(?:he{2,}y+|hey{2,})\b", re.IGNORECASE), r"\1hey"),
                 (re.compile(r"^(\s*)hell+o{2,}\b", re.IGNORECASE), r"\1hello"),
                 # Scots: 'a flight London tae Paris the morra', 'fae Boston', 'whit trips', 'gie us a shout'
                 (re.compile(r"\btae(?= [A-Za-z])", re.IGNORECASE), "to"),
                 (re.compile(r"\bfae(?= [A-Za-z])", re.IGNORECASE), "from"),
                 (re.compile(r"\b(?:the )?morra\b", re.IGNORECASE), "tomorrow"),
                 (re.compile(r"^(\s*)whit\b", re.IGNORECASE), r"\1what"),
                 (re.compile(r"\bgie\b", re.IGNORECASE), "give"),
                 (re.compile(r"\b(can|could|will|would|do|did|are|have) ye\b", re.IGNORECASE), r"\1 you"),
                 (re.compile(r"\b(?:ma|my) wee dug\b", re.IGNORECASE), "my little dog"),
                 (re.compile(r"\bwi'(?=\s)", re.IGNORECASE), "with"),
                 (re.compile(r"\b(?:sory|srry|sorr+y+|soory|sowwy|sry|sorrie)\b", re.IGNORECASE), "sorry"),  # ('no sory 2:30 not 2')
                 # ('like 12 hrs b4': hours, before; not the seat 'B4')
                 (re.compile(r"\b(\d+)\s*hrs?\b", re.IGNORECASE), r"\1 hours"),
                 (re.compile(r"(?-i:\bb4\b)(?=\s*(?:$|[,.!?]|that\b|the\b|then\b|i\b|we\b|u\b|you\b|my\b))"), "before"),
                 # "I'm coming, let me look at my calendar": wait, in Nigerian English
                 (re.compile(r"^(\s*)(?:i'?m|im|i am) coming(?=\s*[,.!-])", re.IGNORECASE), r"\1hold on"),
                 # 'please remember me to the check-in of BK-12345', 'can you say me when ...': remind, tell, as German
                 # and Spanish speakers say them
                 (re.compile(r"\bsay (me|us)\b(?= (?:when|if|whether|what|how|which|where|the)\b)", re.IGNORECASE), r"tell \1"),
                 (re.compile(r"\bremember (me|us) (?=(?:to|of|about) (?:the|my|our|it|that|this)\b)", re.IGNORECASE), r"remind \1 "))
# the words of other Englishes and of dictation, read only when a word they need is said (most turns say none)
_VOICE_GATE = re.compile(r"\b(?:u guys|you guys|ya guys|you lot|you folks|you people|you all|y'?all|run|set|might|fixin'?g?|"
                         r"nah|yeah|she'?ll|mi|di|fi|dat|dah|hole|yuh|yu|den|mek|soon|a wi|a we|a us|mujhe|hum|mera|"
                         r"meri|usko|isko|karna|kar|karo|kardo|log|nahi+n?|theek|thik|thick|achha|acha|accha|thoda|hai|"
                         r"lost|lose|losing|loses|po|na|pwede|pwde|puwede|naman|ng|yung|kami|tayo|niyo|nyo|akin|din|rin|pala|ko|"
                         r"magkano|hindi|sige|(?:send|book|do|cancel|change|move|check) am|naw|whit|aboot|tae|fae|cannae|"
                         r"gonnae|wantae|dinnae|didnae|isnae|wisnae|revert|as of now|in order)\b|\bi-[a-z]|\d(?:st|nd|rd|th)? a |\b(?:for|fore|too|to) (?:of (?:us|them|you)|"
                         r"people|adults|passengers|tickets|seats)|\bhol' on", re.IGNORECASE)
_VOICES = (
    # ('do u guys fly to tokyo??', 'Do you people even allow pets', 'are y'all open'): the service, addressed
    (re.compile(r"\b(do|does|did|are|r|can|could|will|would|have|should) (?:you|u|ya) (?:guys|lot|folks|people|all)\b"
                r"|\b(do|does|did|are|r|can|could|will|would|have|should) y'?all\b", re.IGNORECASE),
     lambda m: f"{m[1] or m[2]} you"),
    # ('what would a headset service and new bar tape run me?': cost me)
    (re.compile(r"\b(run|set) (me|us) back\b|\brun (me|us)\b(?=\s*[?.!]*\s*$)", re.IGNORECASE),
     lambda m: f"cost {m[2] or m[3]}"),
    # Southern US English: 'Might could you keep an eye on fares ...', "I'm fixin' to book"
    (re.compile(r"\bmight (could|can|would|should)\b", re.IGNORECASE), r"\1"),
    (re.compile(r"\b(?:i'?m|we'?re) fixin'?g? to\b", re.IGNORECASE), "I want to"),
    # New Zealand English: 'Nah yeah, do it' says yes, 'Yeah nah, she'll be right' says no
    (re.compile(r"^(\W*)nah,? yeah\b", re.IGNORECASE), r"\1yeah"),
    (re.compile(r"^(\W*)yeah,? nah\b", re.IGNORECASE), r"\1nah"),
    (re.compile(r"\bshe'?ll be right\b", re.IGNORECASE), "it's fine"),
    # Jamaican English: 'mi waan fly', 'fi di 31st a December', 'Hol' on, before dat', 'soon come'
    (re.compile(r"\bmi waan(?:t)?\b", re.IGNORECASE), "I want"),
    (re.compile(r"(?-i:\bdi\b)(?= [a-z0-9])"), "the"),
    (re.compile(r"\bfi(?= (?:di|the|me|mi|my|a|an|[A-Z0-9]))\b"), "for"),
    (re.compile(r"\b(?:dat|dah)\b(?! [A-Z])", re.IGNORECASE), "that"),
    (re.compile(r"\b(?:hol'|hole) on\b", re.IGNORECASE), "hold on"),
    (re.compile(r"\b(?:yuh|yu)\b", re.IGNORECASE), "you"),
    (re.compile(r"\bden\b(?= (?:book|send|check|cancel|change|move|mek|set|gimme|give|tell))", re.IGNORECASE), "then"),
    (re.compile(r"\bmek (?:mi|me)\b", re.IGNORECASE), "let me"),
    (re.compile(r"\bmek\b", re.IGNORECASE), "make"),
    (re.compile(r"^(\W*)soon come\b", re.IGNORECASE), r"\1hold on"),
    (re.compile(r"\b(\d{1,2}(?:st|nd|rd|th)?) a (?=(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)",
                re.IGNORECASE), r"\1 of "),
    (re.compile(r"\b(\w+) a (?:wi|we|us)\b", re.IGNORECASE), r"\1 of us"),  # ('four a wi')
    # Hindi and Hinglish: 'Mujhe ek flight chahiye from London to Paris', 'Hum 5 log hain'
    (re.compile(r"\bmujhe (?:ek |\ba )?(?P<what>[^,.!?]+?) chahiye\b", re.IGNORECASE), r"I need a \g<what>"),
    (re.compile(r"\bhum (\w+) log(?: hain| he| hai)?\b", re.IGNORECASE), r"we are \1 people"),
    # ('mera booking BK-20481 hai, usko prepone karna hai', 'haan book karo', '2 log honge')
    (re.compile(r"(?<![\w.@-])(?:mera|meri)(?![\w.@-])", re.IGNORECASE), "my"),
    (re.compile(r"(?<![\w.@-])(?:usko|isko)(?![\w.@-])", re.IGNORECASE), "it"),
    (re.compile(r"\b(?:it )?(\w+) karna hai\b", re.IGNORECASE), r"I want to \1 it"),
    (re.compile(r"\b(?!(?:haan|ha|han)\b)([a-z]+) (?:kar do|kardo|karo|kar dijiye|kar dena)\b", re.IGNORECASE), r"\1 it"),
    (re.compile(r"\b(\d+|one|two|three|four|five|six|ek|do|teen|char|paanch) log(?: honge| hain| hai| he)?\b",
                re.IGNORECASE), r"\1 people"),
    (re.compile(r"^(\W*)(?:nahi+n?|nahin)\b", re.IGNORECASE), r"\1no"),
    (re.compile(r"\b(?:theek|thik|thick) (?:hai|he|h)\b", re.IGNORECASE), "ok"),
    (re.compile(r"^(\W*)(?:achha|acha|accha)\b", re.IGNORECASE), r"\1ok"),
    (re.compile(r"\bthoda\b", re.IGNORECASE), "a bit of"),
    (re.compile(r"(?<=\w) hai(?=\s*[,.!?]|\s*$)", re.IGNORECASE), ""),
    # ("I've lost track of which books I have": forgotten, nothing lost)
    (re.compile(r"\b(?:lost|lose|losing|loses) track of\b", re.IGNORECASE), "forgotten"),
    # dictated numbers, heard as their homophones: 'there will be for of us', 'too people', 'for adults'
    (re.compile(r"\b(?:for|fore)(?= of (?:us|them|you)\b)|(?<=\bbe )(?:for|fore)(?= (?:people|adults|passengers)\b)",
                re.IGNORECASE), "four"),
    (re.compile(r"\b(?:too|to)(?= of (?:us|them)\b)|\btoo(?= (?:people|adults|passengers|tickets|seats)\b)",
                re.IGNORECASE), "two"),
    # Nigerian Pidgin: 'send am', 'book am' (it)
    (re.compile(r"\b(send|book|do|cancel|change|move|check) am\b", re.IGNORECASE), r"\1 it"),
    # Tagalog and Taglish: 'pwede po ba mag book ng flight', 'pa check naman ng BK-12345', 'book ko na yung cheapest, 3 kami',
    # 'i-email niyo sa akin', 'hindi na po', 'magkano ...?'
    (re.compile(r"\b(?:pwede|pwde|puwede)(?: po)?(?: ba)?(?: (?:po|ba))*(?: (?:mag|ma|pa)(?=\s))?", re.IGNORECASE), "can I"),
    (re.compile(r"(?-i:\s+(?:po|naman|din|rin|pala|ba|na)\b)(?!-)"), ""),
    (re.compile(r"(?:^|(?<=[\s,.!]))pa (?=(?:check|set|book|cancel|change|move|send|email|search|look|remind|add)\b)",
                re.IGNORECASE), "please "),
    (re.compile(r"\bmag (?=[a-z]{3,})", re.IGNORECASE), ""),
    (re.compile(r"\bi-(?=[a-z]{3,})", re.IGNORECASE), ""),
    (re.compile(r"(?-i:\b([a-z]+) ko(?: na)?\b)"), r"I'll \1"),
    (re.compile(r"\b(\d+|two|three|four|five|six|seven|eight) (?:kami|tayo)\b", re.IGNORECASE), r"we are \1"),
    (re.compile(r"\b(?:niyo|nyo) sa akin\b|\bsa akin\b", re.IGNORECASE), "it to me"),
    (re.compile(r"^(\W*)hindi(?: na)?\b", re.IGNORECASE), r"\1no"),
    (re.compile(r"^(\W*)sige\b", re.IGNORECASE), r"\1ok"),
    (re.compile(r"\bmagkano\b", re.IGNORECASE), "how much is"),
    (re.compile(r"(?-i:\bng\b)(?= )"), "the"),
    (re.compile(r"(?-i:\byung\b)"), "the"),
    # Scots: 'naw? whit aboot Edinburgh then', 'a flight fae Glasgow tae London', 'ye cannae', 'gonnae book it'
    (re.compile(r"^(\W*)naw\b", re.IGNORECASE), r"\1no"),
    (re.compile(r"\bwhit\b", re.IGNORECASE), "what"),
    (re.compile(r"\baboot\b", re.IGNORECASE), "about"),
    (re.compile(r"\btae\b", re.IGNORECASE), "to"),
    (re.compile(r"\bfae\b", re.IGNORECASE), "from"),
    (re.compile(r"\b(can|do|did|is|was)nae\b", re.IGNORECASE), r"\1n't"),
    (re.compile(r"\b(gon|wan)nae\b", re.IGNORECASE), lambda m: "going to" if m[1].lower() == "gon" else "want to"),
    (re.compile(r"\bwantae\b", re.IGNORECASE), "want to"),
    # Indian English: 'I will revert after my manager's approval' (reply), 'as of now', 'is it still in order?'
    (re.compile(r"\b(?:i|we) (?:will|shall|'ll) revert(?: back)?\b", re.IGNORECASE), "I will get back to you"),
    (re.compile(r"\bas of now\b", re.IGNORECASE), "for now"),
    (re.compile(r"\b(still|all) in order\b", re.IGNORECASE), r"\1 confirmed"))



# a look-up in a phrasal verb the assistant is asked for: 'can u pull up my reservation', 'bring up my booking', 'dig
# out my appointment' (not 'can I bring up my back pain at the review?', a topic the user raises)
_LOOK_UP = re.compile(r"(?:(?<=\byou )|(?<=\bu )|(?<=\bplease )|(?<=\bpls )|^\s*)(?:pull|bring|dig)\s+(?:up|out)"
                      r"(?=\s+(?:my|our|the|his|her|their|that|this|those|these)\b(?P<what>(?:\s+[\w'-]+){1,3}))", re.IGNORECASE)


def _looked_up(m: re.Match[str]) -> str:
    """'look up' one thing, 'list' several ('bring up my bookings' asks for the list)."""
    several = any(w.endswith("s") and not w.endswith(("ss", "us", "'s")) for w in m["what"].lower().split())
    return "list" if several else "look up"


# being told when something changes: 'lmk if flights nyc to miami ever go under 200 bucks', 'let me know when
# a slot frees up' (not 'let me know when my flight leaves', which asks now)
_NOTIFY_ON = re.compile(r"\b(?:let me know|let us know|lmk|ping me|text me|email me|message me|give (?:me|us) a (?:shout|holler)|"
                        r"holler(?: at (?:me|us))?|shout|"  # ('... and holler if they drop under $450?')
                        r"(?:could|can|would) (?:you|u) tell (?:me|us)|tell (?:me|us))\s+"
                        # (not "when our patient's falls appointment is": 'falls' a noun)
                        r"(?=(?:if|when|whenever|once|as soon as)\b[^.?!]*?\b(?:(?:drops?|dips?|falls?)(?![ \w]*\b(?:is|are)\b)|comes? down|cheaper"
                        r"|under|below|less than|lower|goes? down)\b)", re.IGNORECASE)


_YOU_KNOW_WHAT = re.compile(r"\b(?:do )?(?:you|y'?) ?know what\s*[,.!-]+\s*", re.IGNORECASE)  # an idiom, no question
# Singapore and Chinese English: 'can book flight ... or not?', 'Can tell me when ...', 'Send itinerary for BK-31337 to me
# can?': a request with no one named, or tagged 'can?' ('can or not?'), asks 'can you ...'
_SUBJECTLESS_CAN = re.compile(r"(?P<lead>^|[.!?,;]\s*|\b(?:hi|hey|hello|ok|okay|so|then|also|and)\s+)(?P<can>can)\s+(?!(?:i|you|u|we|"
                              r"they|he|she|it|my|the|your|our|his|her|their|someone|anyone|not|be|there|this|that|a|an|"
                              r"or|anot|lah|leh|ah|lor)\b)(?=[a-z]+\b)", re.IGNORECASE)
_CAN_TAG = re.compile(r"[\s,]+(?:can(?:\s+(?:or\s+not|anot|not))?|or\s+not)(?:\s+(?:lah|leh|ah|lor|ar))?\s*\?+\s*$",
                      re.IGNORECASE)


def _can_you(text: str) -> str:
    """'can book flight ... or not?' -> 'can you book flight ...?'; 'Send itinerary ... can?' -> 'Send itinerary ...'."""
    tag = _CAN_TAG.search(text)
    if tag is not None and (tag.group().strip(" ,?").lower().startswith("can") or _SUBJECTLESS_CAN.search(text)):
        text = text[:tag.start()] + ("?" if _SUBJECTLESS_CAN.search(text) else "")
    return _SUBJECTLESS_CAN.sub(lambda m: m["lead"] + m["can"] + " you ", text)


# 'And before you ask, from London. UGH.', 'January 8. Happy now?': words said at the agent that ask nothing of it
_RHETORICAL = re.compile(r"(?:\b(?:and|oh)\s+)?\bbefore (?:you|u) ask\b[\s,:-]*|(?:(?<=[.!?])|^)\s*(?:(?:are )?(?:you|u) )?"
                         r"(?:happy|satisfied|content) now\s*\?+\s*$|(?<=[.!?])\s*(?:ugh+|argh+|jeez|sheesh|honestly|seriously)[.!]*\s*$",
                         re.IGNORECASE)
# 'omw to work rn 🚌 random q, do u guys fly to tokyo??': a remark, then a question announced as one; the remark asks nothing
_REMARK_THEN_QUESTION = re.compile(r"^(?P<remark>[^?]{0,60}?)\s*[,.;:!-]*\s*\b(?P<lead>(?:random|quick|odd|silly|daft|stupid) "
                                   r"(?:q|qn|question))\b[\s,.:!-]+(?=\w[^?]*\?)", re.IGNORECASE)


def _question_announced(text: str) -> str:
    """The question announced ('random q, do u guys fly to tokyo??'), when what comes before it is a remark that asks
    for nothing; a 'quick question' is kept, as the turning away it says."""
    m = _REMARK_THEN_QUESTION.match(text)
    if m is None or any(c.isdigit() for c in m["remark"]) or REQUEST_ANYWHERE.search(m["remark"]) or WANTS.match(m["remark"]):
        return text
    return text[m.start("lead"):] if m["lead"].lower().startswith("quick") else text[m.end():]


# 'She says yes, thank you dear', "She says 'go ahead'": what someone else says, typed for them, said as theirs
_SAYS_FOR_THEM = re.compile(r"^\W*(?:(?:she|he|they|grandma|grandpa|gran|nan|nana|mum|mom|dad|my \w+) (?:says|said|says to say)"
                            r"[,:]?\s*)(?P<q>['\"‘“]?)(?P<said>.+?)(?P=q)?[\s.!]*$", re.IGNORECASE)
# 'Am I sure? Obviously I'm sure. Yes.', 'Why do you need that? Fine, Boston.', 'Does it matter? January 15.': a question
# asked back before the answer, which asks nothing of the agent
_ASKED_BACK = re.compile(r"^\s*(?:(?:am i (?:sure|certain|serious|kidding|joking)|is that (?:a problem|an issue|too much to ask|"
                         r"the right \w+|everything|all|it)|does (?:it|that) matter|would i|why(?: do| does| would)? (?:you|u) (?:need|want|ask)|"
                         r"what'?s the point of|what for|how come|who cares|what'?s it to (?:you|ya)|do i have (?:a|any) choice|"
                         r"what do you think|(?:are )?(?:you|u) done|who'?s asking|really|seriously)\b[^?.!]{0,40}\?+)\s+(?=\S)",
                         re.IGNORECASE)
# 'sorry - kids - where was I. Chicago.': a question to oneself, finding the thread again, asks nothing of the agent
_LOST_THREAD = re.compile(r"\b(?:(?:now|ok|okay|right|so|um+|er+|anyway|anyhow)[\s,]+)*(?:where (?:was|were) (?:i|we)|"
                          r"what (?:was|were) (?:i|we) (?:saying|on about)|where did (?:i|we) get to)\b(?!\s+(?:going|flying|"
                          r"travell?ing|heading|booked|staying|supposed))(?=\s*[.!,;:-]+\s*\w)[\s.!,;:-]*", re.IGNORECASE)  # (alone, 'where were we?' asks)
# a turn written as a letter ('Dear Sir, that is entirely satisfactory; kindly proceed. Yours faithfully, M. Ellison'):
# its salutation and its close frame what it says
_SALUTATION = re.compile(r"^\s*(?:dear\s+(?!me\b)(?:sir or madam|sir/madam|sirs?|madam|team|all|colleagues|[A-Z][\w.'-]*"
                         r"(?:\s+[A-Z][\w.'-]*){0,2})|to whom it may concern)\s*[,:;!.-]+\s*", re.IGNORECASE)
_VALEDICTION = re.compile(r"(?<=[.!?,;])\s*(?:yours\s+(?:faithfully|sincerely|truly|respectfully)|(?:with\s+)?(?:kind|best|warm|warmest)\s+"
                          r"regards|regards|respectfully(?:\s+yours)?)\s*[,.]?(?:\s*[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3})?[\s.!]*$",
                          re.IGNORECASE)


# 'Move*, not mice, sorry', 'And sorry, booking, not boo king', 'flights* obviously': a word of the last turn put
# right (autocorrect), the word meant starred or said against the word typed
_PIECES = re.compile(r"(?<=[.!?])\s+|,\s*(?=but\b)", re.IGNORECASE)
_PUT_RIGHT_FILLER = re.compile(r"^(?:(?:and|oh|ah|oops|sorry|soz|sry|i meant|meant|obviously|lol|haha|ugh|my bad|"
                               r"(?:stupid |damn )?autocorrect|typo)\b[\s,.!;:-]*)+|(?:[\s,.!;:-]*\b(?:obviously|lol|sorry|soz|"
                               r"sry|oops|haha|ugh|my bad|(?:stupid |damn )?autocorrect|typo)\b)+[\s,.!;:-]*$", re.IGNORECASE)
_NOT_TYPED = re.compile(r"(?:^|[\s,;.-])(?:not|instead of)\s+(?P<typed>[a-z][a-z'-]*(?:\s[a-z][a-z'-]*)?)[\s,.!;:-]*$", re.IGNORECASE)
_STARRED_WORD = re.compile(r"(?P<word>[A-Za-z][\w'-]*)\*|\*(?P<after>[A-Za-z][\w'-]*)")


def word_put_right(text: str, before: str) -> tuple[str, str, str] | None:
    """(what else ``text`` says, ``before`` as meant, the word typed) when ``text`` puts right a word the user typed in
    ``before``, the last turn ('Move*, not mice', 'booking, not boo king', 'Two* people. Not tow.'),
    else None. A word said against one ``before`` does not hold is no such repair."""
    pieces = [p for p in _PIECES.split(text) if p.strip()]
    meant = typed = None
    used = []
    for i, piece in enumerate(pieces):
        core = _PUT_RIGHT_FILLER.sub("", piece.strip()).strip(" ,.!;:-")
        star = _STARRED_WORD.search(core)
        against = _NOT_TYPED.search(core)
        if star is None and against is None:
            continue
        if star is not None and meant is None:
            meant = star["word"] or star["after"]
        if against is not None:
            typed = against["typed"]
            meant = meant or core[:against.start()].strip(" ,;.-*") or None
        left = _STARRED_WORD.sub("", core[:against.start()] if against else core).replace(meant or "", " ", 1)
        if not set(tokens(left)) <= set(tokens(before)):
            return None  # ('I want to fly* to Paris now': more said than the repair)
        used.append(i)
    if not meant or not used or re.search(rf"\b{re.escape(meant)}\b", before, re.IGNORECASE):
        return None
    if typed is None:
        close = difflib.get_close_matches(meant.lower(), [w for w in tokens(before) if w != meant.lower()], n=1, cutoff=0.6)
        typed = close[0] if close else None
    if typed is None or not re.search(rf"\b{re.escape(typed)}\b", before, re.IGNORECASE):
        return None
    rest = re.sub(r"^(?:but|and|so)\b[\s,]*", "", " ".join(p for i, p in enumerate(pieces) if i not in used).strip(), flags=re.IGNORECASE)
    return rest, re.sub(rf"\b{re.escape(typed)}\b", meant, before, count=1, flags=re.IGNORECASE), typed


_STARRED = re.compile(r"(?<=\w)\*+(?=[\s,.!?;:]|$)|(?:^|(?<=\s))\*+(?=\w)")


# fat fingers on a phone: a key next to the one meant ('yws', 'go aheaf'), two keys swapped ('yse', 'plesae'), a key
# pressed twice or missed ('forgett', 'nevr'), in the words a short answer is made of
_KEYS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
_NEXT_KEYS = {c: {r[j] for j in (i - 1, i + 1) if 0 <= j < len(r)} | {o[k] for o in _KEYS if o is not r
                                                                     for k in (i - 1, i, i + 1) if 0 <= k < len(o)
                                                                     and abs(_KEYS.index(o) - _KEYS.index(r)) == 1}
              for r in _KEYS for i, c in enumerate(r)}
_ACT_WORDS = ("yes", "yeah", "yep", "please", "ahead", "sure", "okay", "cancel", "never", "mind", "forget", "actually",
              "thanks", "thank", "book", "right", "correct", "fine", "great", "perfect", "stop", "keep", "leave", "bye",
              "nope", "that", "this", "go", "it", "do", "no", "you")
_TYPED = re.compile(r"[a-z]+", re.IGNORECASE)


def fat_finger(word: str, meant: str) -> bool:
    """Whether ``word`` is ``meant`` typed with one slip of the finger (not ``meant`` itself)."""
    if word == meant or abs(len(word) - len(meant)) > 1:
        return False
    if len(word) == len(meant):
        diff = [i for i, (a, b) in enumerate(zip(word, meant)) if a != b]
        if len(diff) == 1:
            return word[diff[0]] in _NEXT_KEYS.get(meant[diff[0]], ())
        return len(diff) == 2 and diff[1] == diff[0] + 1 and word[diff[0]] == meant[diff[1]] \
            and word[diff[1]] == meant[diff[0]]
    if len(meant) < 4:
        return False  # ('yet', 'ok': a short word one letter off is another word)
    longer, shorter = (word, meant) if len(word) > len(meant) else (meant, word)
    return any(longer[:i] + longer[i + 1:] == shorter for i in range(len(longer)))


def mend_slips(text: str, known: Callable[[str], bool]) -> str:
    """A short turn whose act words were typed with a slip of the finger, mended ('yse go aheaf' -> 'yes go ahead',
    'acutally nevr mind, forgett it' -> 'actually never mind, forget it'), when the mended turn says yes, no, stop or
    goodbye and the typed one does not; a word ``known`` as written is never mended ('find a book' is no 'fine a book',
    'kind of' no 'mind of')."""
    if len(tokens(text)) > 6:
        return text

    def mended(m: re.Match[str]) -> str:
        word = m.group().lower()
        if word in _ACT_WORDS or word in STOPWORDS or len(word) < 3 or known(word):
            return m.group()
        return next((meant for meant in _ACT_WORDS if fat_finger(word, meant)), m.group())
    slipped = _TYPED.sub(mended, text)
    return slipped if slipped != text and _an_act(slipped) and not _an_act(text) else text


def _an_act(text: str) -> bool:
    """Whether ``text`` says yes, no, stop or goodbye."""
    return agrees(text) or bool(DENY.match(text) or CANCEL.match(text)) or is_closing(text)


# ('Could you tell me which classes I am booked into?', 'tell me what we have booked'): a question put inside a request,
# asked outright ('which classes am I booked into')
_EMBEDDED = re.compile(r"(?P<pre>\b(?:tell (?:me|us)|remind (?:me|us))\s+)(?P<wh>which|what|when|where|how many|how much)"
                       r"(?P<mid>(?:\s+[\w'-]+){0,3}?)\s+(?P<subj>i|we)(?:\s+(?P<aux>am|are|have|was|were)\b|(?P<short>'m|'re|'ve)\b)",
                       re.IGNORECASE)
_FULL_AUX = {"'m": "am", "'re": "are", "'ve": "have"}


def _asked_outright(m: re.Match[str]) -> str:
    aux = m["aux"] or _FULL_AUX[m["short"].lower()]
    return f"{m['pre']}{m['wh']}{m['mid']} {aux} {m['subj']}"


# punctuation said aloud to a screen reader or dictation ('yes comma go ahead period', 'cancel that period'): a comma
# anywhere, or a mark that ends the turn (not 'the cancellation period', a time)
_SPOKEN_MARK = re.compile(r"\bcomma\b|\b(?:question mark|exclamation (?:mark|point)|new line|new paragraph)\b"
                          r"|(?<!\bthe )(?<!\ba )(?<!grace )(?<!cancellation )(?<!refund )(?<!trial )(?<!notice )(?<!waiting )"
                          r"(?<!off )(?<!holiday )(?<!booking )(?<!rental )(?<!hire )(?<!time )(?<!free )(?<!return )(?<!payment )"
                          r"(?<!billing )(?<!contract )(?<!same )\b(?:period|full stop)\s*$", re.IGNORECASE)
_SPOKEN_MARKS = ((re.compile(r"\s*\bcomma\b", re.IGNORECASE), ","),
                 (re.compile(r"\s*\b(?:period|full stop)\b", re.IGNORECASE), "."),
                 (re.compile(r"\s*\bquestion mark\b", re.IGNORECASE), "?"),
                 (re.compile(r"\s*\bexclamation (?:mark|point)\b", re.IGNORECASE), "!"),
                 (re.compile(r"\s*\bnew (?:line|paragraph)\b", re.IGNORECASE), "."))


def _spoken_marks_written(text: str) -> str:
    for pattern, mark in _SPOKEN_MARKS:
        text = pattern.sub(mark, text)
    return text


# ('first, a search for flights ...; second, ...'): the first of items counted off (the others break the parts)
_FIRST_ITEM = re.compile(r"^\s*(?:first(?:ly)?|1\))[,:]\s*", re.IGNORECASE)
# ('I see. Then I should be grateful if you would remind me ...', 'Ah, I see, ...'): understood, before what is asked
_ACKNOWLEDGED = re.compile(r"^\s*(?:(?:oh|ah+|right|ok|okay)[\s,]+)?i see(?:\s+now)?[.!,;]+\s+(?=\S)", re.IGNORECASE)
# ('go ahead and cancel it, sure look', 'sure look it, book it'): an Irish filler, 'oh well', that asks nothing
_IRISH_FILLER = re.compile(r"[,\s]*\bsure look(?: it)?\b[,.!]*", re.IGNORECASE)
# ('Yo what's the status ...', 'Oi, wanna book ...'): a hail before the turn
_HAILED = re.compile(r"^\s*(?:yo+|oi+|oy)\b[\s,!.]*", re.IGNORECASE)
# ('Is possible change date for booking BK-12345?': 'it' and 'to' dropped, as a Russian speaker may)
_POSSIBLE_BARE = re.compile(r"\bis (?:it )?possible (?!to\b|for\b|that\b|if\b)(?=[a-z]{3,}\b)", re.IGNORECASE)
# ('1) origin: Boston; 2) destination: Chicago'): the numbers of a list's items
_LIST_MARKS = re.compile(r"(?:^|(?<=[\s;,:]))\d{1,2}\)\s+(?=[A-Za-z])")
# ('Two items for Mr. Hale, please: cancel ..., and set up ...', 'A couple of things: ...'): the items announced before
# a colon, then said
_ITEMS_ANNOUNCED = re.compile(r"^[^:]{0,60}?\b(?:two|three|four|2|3|4|a couple(?: of)?|a few|few|several|some)\s+"
                              r"(?:things|items|requests|tasks|bits|jobs|questions)\b[^:]{0,40}:\s*", re.IGNORECASE)


def plain_words(text: str) -> str:
    """'hiii can i book a flght?', 'heyyy', 'hellooo': a greeting drawn out to open the turn, said plainly
    (so the request after it is read as one); 'cn i', '4 my mum' texted, said in words; 'pull up my
    booking' in the plain verb of looking it up ('bring up my bookings' of listing them), 'lmk if ... goes under' in
    the plain verb of being told; a turn written as a letter without its 'Dear Sir,' and 'Yours faithfully, ...'."""
    if _SHOUTED.fullmatch(text):  # ('HELLO I WOULD LIKE TO BOOK ...': capitals that mark no name)
        text = text.lower()
    text = _STARRED.sub("", text)  # ('Two* people. Not tow.': the word meant, marked as a correction)
    text = _SELF_REPAIR.sub(_repaired, text)  # ('For two - no, three people', 'Can you cancel - sorry, check - my booking')
    for pattern, word in _TEXTED_WORDS:
        text = pattern.sub(word, text)
    if _VOICE_GATE.search(text):
        for pattern, word in _VOICES:
            text = pattern.sub(word, text)
    text = _can_you(_RHETORICAL.sub(" ", _LOST_THREAD.sub("", _YOU_KNOW_WHAT.sub("", text))).strip() or text)
    text = _question_announced(text)
    said = _SAYS_FOR_THEM.match(text)
    if said is not None and (agrees(said["said"]) or DENY.match(said["said"])):
        text = said["said"]
    text = _ASKED_BACK.sub("", text) or text  # ('actually do you know what, just cancel it instead')
    text = _VALEDICTION.sub("", _SALUTATION.sub("", text)) or text  # (a letter's opening and close)
    text = _LIST_MARKS.sub("", _FIRST_ITEM.sub("", _ITEMS_ANNOUNCED.sub("", text) or text))
    text = _POSSIBLE_BARE.sub("is it possible to ", _HAILED.sub("", _ACKNOWLEDGED.sub("", text)) or text)
    text = _IRISH_FILLER.sub("", text) or text
    if _SPOKEN_MARK.search(text):
        text = _spoken_marks_written(text)
    text = _EMBEDDED.sub(_asked_outright, text)
    return _NOTIFY_ON.sub("notify me ", _LOOK_UP.sub(_looked_up, text))


def agrees(text: str) -> bool:
    """A yes in any words: 'yes', 'sounds good to me', and a turn that only says yes in its own
    words ('yes thats it', 'That works out for me', 'Yes, confirmed to proceed', 'I'd love that');
    never with a no, a wait or a condition in it ('maybe later', 'yes but not friday')."""
    text = _DRAWN_OUT.sub(r"\1", text)  # 'yesss', 'yeahhh'
    if AFFIRM.match(text) or AGREES.match(text):
        return True
    said = tokens(text)
    if not said or any(t in _HOLDS_BACK for t in said) or is_question(text) or is_closing(text):
        return False
    return not names_something(text) and any(stem(t) in _SAYS_YES for t in said)
