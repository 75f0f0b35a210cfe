"""The words of the authority grammar: function words, parties, the things an action is
about, the forms of the action verbs and nouns, and the words of other senses.

Every list here is a closed class a reader of commercial English would recognise: the
auxiliaries and prepositions that frame a verb, the titles and team names that stand for
an owner (``the CFO``, ``plant engineering``, ``procurement``), the nouns an action may be
about by kind (a discount is commercial, a substitution a fit, a PO a purchase order), and
the completed forms of the action verbs by family (``okayed`` and ``signed off`` approve,
``booked in`` records, ``came through`` arrives).
"""

from __future__ import annotations

import re

from remit.authority import Role


def words(text: str) -> frozenset[str]:
    """The words of ``text``, split on white space."""
    return frozenset(text.split())


# -- function words -----------------------------------------------------------------------------

DETERMINERS = words("the a an this that these those my your our their its his her all both "
                    "each every any some no another either neither")
INDEFINITE = words("a an any every each some another either")
QUANTIFIERS = words("most many several various numerous major leading")
PREPOSITIONS = words("at in on of from for with within without by to into onto under over "
                     "after before against through via per about across including since "
                     "until as than like between during upon")
BE = words("is are was were 's am be been being remains remain remained stays stay stayed")
STRICT_BE = BE - {"'s"}
HAVE = words("has have had 'd")
MODALS = words("will would shall should must could may might can")
ADVERBS = words("now just already also both all finally officially formally fully personally "
                "still recently actually indeed partially internally duly successfully "
                "verbally really only properly yet since then subsequently themselves "
                "himself herself itself each even kindly today yesterday")
CHAIN = BE | HAVE | MODALS | ADVERBS | words("not never to get gets getting got do does did "
                                             "deemed considered regarded")
"""Words that stand between a subject and its verb: auxiliaries, modals, adverbs, and verbs
that take a participle as their complement (``will be deemed accepted``)."""
TIME = words("yesterday today tomorrow morning afternoon evening tonight week weeks month "
             "months year monday tuesday wednesday thursday friday saturday sunday ago earlier "
             "later soon shortly again too last next first quickly separately internally "
             "personally formally officially fully partially already now just also still "
             "myself yourself ourselves themselves himself herself itself")
MONTHS = words("january february march april may june july august september october "
               "november december jan feb mar apr jun jul aug sep sept oct nov dec")
PRONOUNS = words("i we you they he she it me us them him one everything everyone nothing "
                 "nobody anything something what")
CONJUNCTIONS = words("and or but so because though although while which who whom whose that "
                     "whether if once when then nor yet unless until where whereas however")
LEADING = words("and or but so since as because though although while if once until when "
                "whether unless before after now then also just that which who please")
"""Words that open a clause before its subject."""
IRREGULAR_PASTS = words("came went gave got sent made took said told saw put left stood held "
                        "paid found brought bought kept wrote ran began did does do gone come "
                        "done given taken seen known")
MARKS = words("✅ ✔ ☑ [x] ✓")
"""Check marks: what they stand by is done."""
NEGATIONS = words("not never no none nobody no-one noone nothing neither nor without 0 zero "
                  "hardly barely ❌")
REPORTING = words("said says say wrote mentioned told tells claimed claims stated thought "
                  "assumed believed reported indicated suggested think believe assume suppose "
                  "guess imagine reckon")
"""Verbs whose complement is someone's words rather than the writer's statement."""
HEDGES = words("likely unlikely probably possibly perhaps maybe hopefully supposedly "
               "apparently seemingly seems seem appears hope hoping expect expects expected "
               "expecting provisionally conditionally tentatively almost nearly ensure possible "
               "conceivable conceivably unclear uncertain unsure doubt thinks believes "
               "reckons assumes supposes guesses imagines suspects suspect")
NP_STOP = (PREPOSITIONS | BE | HAVE | MODALS | TIME | PRONOUNS | CONJUNCTIONS | IRREGULAR_PASTS
           | words("not never to following off over up out back down")
           | words("matches fits suits meets works covers includes needs requires reflects "
                   "stands holds remains looks seems sits ships"))
"""Words that end a noun phrase."""

# -- parties ------------------------------------------------------------------------------------

TITLES: dict[str, Role] = {
    **dict.fromkeys(words("finance fin cfo controller treasury accounts approver"), Role.FINANCE),
    **dict.fromkeys(words("engineering engineer engineers eng engg"), Role.TECHNICAL_OWNER),
    **dict.fromkeys(words("buyer buyers customer client purchaser procurement purchasing "
                          "stores goods-in"), Role.BUYER),
}
TITLE_PAIRS: dict[tuple[str, str], Role] = {
    **dict.fromkeys([("credit", "control"), ("pricing", "desk"), ("financial", "officer")],
                    Role.FINANCE),
    **dict.fromkeys([("technical", w) for w in ("owner", "authority", "team", "lead", "manager",
                                                "department")]
                    + [("design", "authority"), ("process", "safety")]
                    + [(a, b) for a in ("maintenance", "plant", "process", "piping", "instrument",
                                        "mechanical", "reliability")
                       for b in ("lead", "manager", "team")]
                    + [("site", "lead"), ("site", "manager")],
                    Role.TECHNICAL_OWNER),
    ("receiving", "team"): Role.BUYER,
}
TITLE_ACRONYMS: dict[str, Role] = {"AP": Role.FINANCE, "FD": Role.FINANCE,
                                   "TA": Role.TECHNICAL_OWNER}
"""Titles written in capitals only (``AP``, not the preposition-like ``ap``)."""
YOU, YOUR = words("you yourself yourselves"), words("your yours")
WE, OUR = words("we i us me myself ourselves"), words("our my")
THEY, THEIR = words("they he she him them her"), words("their his her its")
OBJECTS = words("me you us him her them")
ORG = words("team side site company organisation organization people colleague colleagues "
            "plant end warehouse business firm office department")
"""Nouns that, after ``your`` or ``our``, name the party itself (``your team``)."""
GROUPS = words("owners approvers signatories stakeholders sides parties")
"""Nouns for the owners together, naming none of them (``both owners have signed off``)."""
COORDINATORS = words("and & or nor , plus")

# -- what an action is about --------------------------------------------------------------------

THEMES: dict[str, str] = {
    **dict.fromkeys(words("fit fits fitment match substitution substitutions substitute swap "
                          "switch replacement successor equivalent alternative change changes "
                          "deviation "
                          "compatibility suitability interchangeability sizing mounting "
                          "selection configuration variant technical"), "fit"),
    **dict.fromkeys(words("conditions condition pressure temperature medium media flange piping "
                          "connection duty requirement requirements spec specs specification "
                          "specifications dimensions chlorides fluid rating torque certificate "
                          "certificates certification"), "fact"),
    **dict.fromkeys(words("valve valves actuator actuators part parts gasket gaskets kit kits "
                          "seat seats body bodies trim seal seals stem disc ball option options "
                          "model models product products"), "product"),
    **dict.fromkeys(words("discount discounts price prices pricing exception exceptions margin "
                          "margins terms rate rates figure figures total request requests rebate "
                          "concession uplift markup commercial commercials"), "commercial"),
    **dict.fromkeys(words("quote quotes quotation quotations offer proposal deal version "
                          "revision"), "quote"),
    **dict.fromkeys(words("po pos p.o order orders"), "po"),
    **dict.fromkeys(words("receipt gr grn grns"), "receipt"),
    **dict.fromkeys(words("goods delivery deliveries consignment shipment shipments pallet "
                          "pallets crate crates carton cartons parcel parcels package packages"),
                    "goods"),
    **dict.fromkeys(words("payment payments funds money remittance"), "payment"),
    **dict.fromkeys(words("invoice invoices inv"), "invoice"),
    **dict.fromkeys(words("budget budgets capex opex funding"), "budget"),
}
"""The head nouns of what an action may be about, by kind (a budget is the buyer's own
matter: no owner action on the quote approves it)."""
ACTION_NOUNS: dict[str, str] = {
    **dict.fromkeys(words("approval approvals sign-off sign-offs signoff go-ahead green-light "
                          "greenlight blessing nod thumbs-up all-clear authorisation authorization "
                          "clearance ok okay"), "approve"),
    **dict.fromkeys(words("confirmation confirmations verification validation check "
                          "reconfirmation"), "confirm"),
    **dict.fromkeys(words("acceptance countersignature"), "accept"),
    **dict.fromkeys(words("signature signatures"), "sign"),
    **dict.fromkeys(words("agreement consent"), "agree"),
}
"""Nouns that name an owner action, by the family of its verb."""
DOCUMENTS = frozenset({"po", "receipt", "goods", "payment", "invoice"})
"""What ``it`` may stand for when it arrives, is booked or is paid."""
GENERIC_HEADS = words("status state step stage milestone progress")
"""Nouns that name no thing of their own (``Discount status``)."""
PAPERS = words("form forms paperwork document documents sheet note notes advice")
"""Nouns of the paper an action is written on, named by what it is about (``the exception
form``)."""
FIT_WORDS = words("fits matches suits suitable compatible interchangeable drop-in replace "
                  "replaces acceptable adequate sufficient")
"""Words that, after ``confirmed``, say a product's fit is what was confirmed."""
UNITS = words("bar barg bara psi psig kpa mpa degc degf")
"""Units of the site's conditions: a number in them makes a phrase a fact (``the 12 bar
figure``)."""
QUOTE_CODE = re.compile(r"q-\d+|v\d+")
PRODUCT_CODE = re.compile(r"[a-z]{2,3}-\d{3,6}(?:-\d{1,6})*")
IDENTIFIER = re.compile(r"[\d#.,/-]+|[a-z]{2,4}(?:-\d{2,8})+")

# -- the forms of the action words --------------------------------------------------------------

PARTICIPLES: dict[str, str] = {
    **dict.fromkeys(words("approved reapproved re-approved pre-approved preapproved okayed ok'd "
                          "oked okd ok-ed cleared authorised authorized sanctioned rubber-stamped "
                          "rubberstamped greenlit green-lit greenlighted green-lighted blessed "
                          "endorsed signed-off"), "approve"),
    **dict.fromkeys(words("agreed consented committed"), "agree"),
    **dict.fromkeys(words("confirmed reconfirmed re-confirmed verified validated"), "confirm"),
    **dict.fromkeys(words("accepted countersigned"), "accept"),
    "signed": "sign",
    **dict.fromkeys(words("received got gotten obtained secured acknowledged"), "receive"),
    **dict.fromkeys(words("gave given granted emailed provided communicated"), "give"),
    **dict.fromkeys(words("sent placed raised issued submitted"), "send"),
    **dict.fromkeys(words("recorded logged posted booked entered registered receipted "
                          "processed noted"), "record"),
    **dict.fromkeys(words("released paid settled transferred remitted made"), "release"),
    **dict.fromkeys(words("arrived landed reached came come went gone attached followed"),
                    "arrive"),
    **dict.fromkeys(words("done complete completed"), "done"),
    **dict.fromkeys(words("stands holds carries applies"), "persist"),
}
"""Completed forms of the verbs of owner actions, by family."""
GERUNDS: dict[str, str] = {
    **dict.fromkeys(words("approving okaying ok'ing oking ok-ing clearing authorising "
                          "authorizing green-lighting greenlighting sanctioning"), "approve"),
    "signing": "sign", "agreeing": "agree", "accepting": "accept", "countersigning": "accept",
    **dict.fromkeys(words("confirming verifying validating"), "confirm"),
    **dict.fromkeys(words("sending placing submitting"), "send"),
    **dict.fromkeys(words("recording logging booking"), "record"),
    **dict.fromkeys(words("releasing paying"), "release"),
}
"""Gerunds, read as completed after ``thanks for``."""
BASES: dict[str, str] = {
    **dict.fromkeys(words("approve ok okay clear authorise authorize sanction"), "approve"),
    "sign": "sign", "agree": "agree", "accept": "accept",
    **dict.fromkeys(words("confirm verify validate"), "confirm"),
    **dict.fromkeys(words("receive get"), "receive"), "give": "give", "grant": "give",
    **dict.fromkeys(words("send place"), "send"),
    **dict.fromkeys(words("record log post book"), "record"),
    **dict.fromkeys(words("release pay settle"), "release"),
    **dict.fromkeys(words("arrive land"), "arrive"),
}
"""Base forms, read as completed after an emphatic ``did`` (``but they did approve 10%``)."""
VERB_BASES = words("approve confirm accept acknowledge agree sign send receive record log post "
                   "book release pay request need require await get have give")
"""Base verbs that end a noun phrase read backwards (``we confirm | receipt``)."""
PHRASAL: dict[str, frozenset[str]] = {
    **dict.fromkeys(words("sign signing"), words("off")),
    **dict.fromkeys(words("send sent sending"), words("over across through")),
    **dict.fromkeys(words("book booked booking checked"), words("in")),
    "carries": words("over"),
}
"""The particles a verb takes (``signing off``, ``sent over``, ``booked in``)."""
OK = words("ok okay")
LGTM = words("lgtm sgtm")
"""Chat for "looks (sounds) good to me": the word of whoever it is from (``lgtm from plant
eng``)."""
THANKS = words("thanks thank grateful appreciate appreciated")

# -- other senses and statuses ------------------------------------------------------------------

CERTIFIERS = words("type factory third-party industry widely generally commonly universally "
                   "internationally independently")
"""Words before ``approved``/``accepted`` that make it a certification or a norm."""
OPEN_STATUS = words("pending awaiting waiting open not outstanding todo to-do no ⏳ ❌ started "
                    "progress")
"""Status words that say an action is still to come."""
