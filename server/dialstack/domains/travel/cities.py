"""The static reference data the travel database is generated from: cities, airports, FAQ.

Every value here is real-world (names, IATA codes, approximate coordinates); nothing is random.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Airport:
    code: str
    name: str


@dataclass(frozen=True)
class City:
    name: str
    code: str  # the main IATA code: the metropolitan code for multi-airport cities
    country: str
    region: str  # na | eu | as | af | sa | oc
    lat: float
    lon: float
    airports: tuple[Airport, ...]
    aliases: tuple[str, ...] = ()
    hub: bool = False  # hubs get more routes and more daily flights


def _c(name: str, code: str, country: str, region: str, lat: float, lon: float, airports: str, aliases: str = "", hub: bool = False) -> City:
    ports = tuple(Airport(*part.split("=", 1)) for part in airports.split(";"))
    return City(name, code, country, region, lat, lon, ports, tuple(a for a in aliases.split(";") if a), hub)


CITIES: tuple[City, ...] = (
    # North America
    _c("New York", "NYC", "United States", "na", 40.71, -74.01,
       "JFK=John F. Kennedy International;LGA=LaGuardia;EWR=Newark Liberty International",
       "NYC;New York City;NY;Big Apple;Manhattan", hub=True),
    _c("Los Angeles", "LAX", "United States", "na", 34.05, -118.24, "LAX=Los Angeles International", "LA;L.A.;City of Angels", hub=True),
    _c("Chicago", "CHI", "United States", "na", 41.88, -87.63, "ORD=O'Hare International;MDW=Midway International", "Chi-town;Windy City", hub=True),
    _c("San Francisco", "SFO", "United States", "na", 37.77, -122.42, "SFO=San Francisco International", "SF;San Fran;Frisco;Bay Area", hub=True),
    _c("Boston", "BOS", "United States", "na", 42.36, -71.06, "BOS=Logan International", "Beantown", hub=True),
    _c("Washington", "WAS", "United States", "na", 38.91, -77.04,
       "IAD=Washington Dulles International;DCA=Ronald Reagan Washington National",
       "DC;D.C.;Washington DC;Washington D.C.", hub=True),
    _c("Miami", "MIA", "United States", "na", 25.76, -80.19, "MIA=Miami International", "", hub=True),
    _c("Seattle", "SEA", "United States", "na", 47.61, -122.33, "SEA=Seattle-Tacoma International", "Sea-Tac", hub=True),
    _c("Denver", "DEN", "United States", "na", 39.74, -104.99, "DEN=Denver International", "Mile High City", hub=True),
    _c("Atlanta", "ATL", "United States", "na", 33.75, -84.39, "ATL=Hartsfield-Jackson Atlanta International", "ATL;Hotlanta", hub=True),
    _c("Dallas", "DFW", "United States", "na", 32.78, -96.80, "DFW=Dallas/Fort Worth International;DAL=Dallas Love Field", "Dallas-Fort Worth;Big D", hub=True),
    _c("Houston", "HOU", "United States", "na", 29.76, -95.37, "IAH=George Bush Intercontinental;HOU=William P. Hobby", "H-Town"),
    _c("Las Vegas", "LAS", "United States", "na", 36.17, -115.14, "LAS=Harry Reid International", "Vegas;Sin City", hub=True),
    _c("Orlando", "MCO", "United States", "na", 28.54, -81.38, "MCO=Orlando International", ""),
    _c("Phoenix", "PHX", "United States", "na", 33.45, -112.07, "PHX=Phoenix Sky Harbor International", ""),
    _c("Philadelphia", "PHL", "United States", "na", 39.95, -75.17, "PHL=Philadelphia International", "Philly"),
    _c("Portland, Oregon", "PDX", "United States", "na", 45.52, -122.68, "PDX=Portland International", "Portland OR;Portland, OR"),
    _c("Portland, Maine", "PWM", "United States", "na", 43.66, -70.26, "PWM=Portland International Jetport", "Portland ME;Portland, ME"),
    _c("Honolulu", "HNL", "United States", "na", 21.31, -157.86, "HNL=Daniel K. Inouye International", "Hawaii;Oahu"),
    _c("Toronto", "YTO", "Canada", "na", 43.65, -79.38, "YYZ=Toronto Pearson International;YTZ=Billy Bishop Toronto City", "T.O.", hub=True),
    _c("Vancouver", "YVR", "Canada", "na", 49.28, -123.12, "YVR=Vancouver International", ""),
    _c("Montreal", "YUL", "Canada", "na", 45.50, -73.57, "YUL=Montréal-Trudeau International", "Montréal"),
    _c("Mexico City", "MEX", "Mexico", "na", 19.43, -99.13, "MEX=Benito Juárez International", "CDMX;Ciudad de México", hub=True),
    _c("Cancún", "CUN", "Mexico", "na", 21.16, -86.85, "CUN=Cancún International", "Cancun"),
    # Europe
    _c("London", "LON", "United Kingdom", "eu", 51.51, -0.13,
       "LHR=Heathrow;LGW=Gatwick;STN=Stansted;LCY=London City", "", hub=True),
    _c("Paris", "PAR", "France", "eu", 48.86, 2.35, "CDG=Charles de Gaulle;ORY=Orly", "City of Light", hub=True),
    _c("Rome", "ROM", "Italy", "eu", 41.90, 12.50, "FCO=Leonardo da Vinci–Fiumicino;CIA=Ciampino", "Roma", hub=True),
    _c("Milan", "MIL", "Italy", "eu", 45.46, 9.19, "MXP=Malpensa;LIN=Linate", "Milano"),
    _c("Madrid", "MAD", "Spain", "eu", 40.42, -3.70, "MAD=Adolfo Suárez Madrid–Barajas", "", hub=True),
    _c("Barcelona", "BCN", "Spain", "eu", 41.39, 2.17, "BCN=Josep Tarradellas Barcelona–El Prat", "Barna"),
    _c("Lisbon", "LIS", "Portugal", "eu", 38.72, -9.14, "LIS=Humberto Delgado", "Lisboa"),
    _c("Berlin", "BER", "Germany", "eu", 52.52, 13.40, "BER=Berlin Brandenburg", ""),
    _c("Munich", "MUC", "Germany", "eu", 48.14, 11.58, "MUC=Munich", "München"),
    _c("Frankfurt", "FRA", "Germany", "eu", 50.11, 8.68, "FRA=Frankfurt am Main", "", hub=True),
    _c("Amsterdam", "AMS", "Netherlands", "eu", 52.37, 4.90, "AMS=Schiphol", "", hub=True),
    _c("Brussels", "BRU", "Belgium", "eu", 50.85, 4.35, "BRU=Brussels", "Bruxelles"),
    _c("Zurich", "ZRH", "Switzerland", "eu", 47.38, 8.54, "ZRH=Zurich", "Zürich"),
    _c("Vienna", "VIE", "Austria", "eu", 48.21, 16.37, "VIE=Vienna International", "Wien"),
    _c("Dublin", "DUB", "Ireland", "eu", 53.35, -6.26, "DUB=Dublin", ""),
    _c("Copenhagen", "CPH", "Denmark", "eu", 55.68, 12.57, "CPH=Copenhagen Kastrup", "København"),
    _c("Stockholm", "STO", "Sweden", "eu", 59.33, 18.07, "ARN=Arlanda;BMA=Bromma", ""),
    _c("Athens", "ATH", "Greece", "eu", 37.98, 23.73, "ATH=Athens International", ""),
    _c("Istanbul", "IST", "Turkey", "eu", 41.01, 28.98, "IST=Istanbul;SAW=Sabiha Gökçen", "Constantinople", hub=True),
    _c("Prague", "PRG", "Czechia", "eu", 50.08, 14.44, "PRG=Václav Havel", "Praha"),
    _c("Edinburgh", "EDI", "United Kingdom", "eu", 55.95, -3.19, "EDI=Edinburgh", ""),
    # Asia, Middle East, Oceania
    _c("Tokyo", "TYO", "Japan", "as", 35.68, 139.69, "HND=Haneda;NRT=Narita International", "", hub=True),
    _c("Seoul", "SEL", "South Korea", "as", 37.57, 126.98, "ICN=Incheon International;GMP=Gimpo International", ""),
    _c("Beijing", "BJS", "China", "as", 39.90, 116.41, "PEK=Beijing Capital International;PKX=Beijing Daxing International", "Peking"),
    _c("Shanghai", "SHA", "China", "as", 31.23, 121.47, "PVG=Pudong International;SHA=Hongqiao International", ""),
    _c("Hong Kong", "HKG", "China", "as", 22.32, 114.17, "HKG=Hong Kong International", "HK", hub=True),
    _c("Singapore", "SIN", "Singapore", "as", 1.35, 103.82, "SIN=Changi", "", hub=True),
    _c("Bangkok", "BKK", "Thailand", "as", 13.76, 100.50, "BKK=Suvarnabhumi;DMK=Don Mueang International", ""),
    _c("Dubai", "DXB", "United Arab Emirates", "as", 25.20, 55.27, "DXB=Dubai International", "", hub=True),
    _c("Delhi", "DEL", "India", "as", 28.61, 77.21, "DEL=Indira Gandhi International", "New Delhi"),
    _c("Mumbai", "BOM", "India", "as", 19.08, 72.88, "BOM=Chhatrapati Shivaji Maharaj International", "Bombay"),
    _c("Sydney", "SYD", "Australia", "oc", -33.87, 151.21, "SYD=Kingsford Smith", "", hub=True),
    _c("Melbourne", "MEL", "Australia", "oc", -37.81, 144.96, "MEL=Melbourne Tullamarine", ""),
    # Africa and South America
    _c("Johannesburg", "JNB", "South Africa", "af", -26.20, 28.05, "JNB=O. R. Tambo International", "Joburg;Jozi"),
    _c("Cairo", "CAI", "Egypt", "af", 30.04, 31.24, "CAI=Cairo International", ""),
    _c("São Paulo", "SAO", "Brazil", "sa", -23.55, -46.63, "GRU=Guarulhos International;CGH=Congonhas", "Sao Paulo;Sampa", hub=True),
    _c("Buenos Aires", "BUE", "Argentina", "sa", -34.60, -58.38, "EZE=Ministro Pistarini (Ezeiza);AEP=Aeroparque Jorge Newbery", "BA"),
    _c("Bogotá", "BOG", "Colombia", "sa", 4.71, -74.07, "BOG=El Dorado International", "Bogota"),
)

FAQ: tuple[tuple[str, str, str, str], ...] = (
    # (topic, keywords, question, answer)
    ("baggage", "baggage luggage bag bags suitcase carry-on carry checked weight kg allowance",
     "How much baggage can I bring?",
     "Every ticket includes one carry-on bag (up to 8 kg) and one personal item. "
     "The first checked bag (up to 23 kg) costs $35 on domestic flights and is included on international flights; "
     "each additional checked bag costs $50."),
    ("refunds", "refund refunds refundable money back cancel cancellation reimburse",
     "What is your refund policy?",
     "Cancel more than 7 days before departure for a full refund. Within 7 days of departure you get 50% back; "
     "after departure a booking can't be refunded. Refunds go back to the original payment method within 5-10 business days."),
    ("fees", "fee fees charge charges cost extra surcharge service",
     "What fees do you charge?",
     "There is no booking fee. Date changes cost $75 per passenger plus any fare difference; "
     "seat selection is free; a second checked bag costs $50."),
    ("changes", "change changes modify move reschedule date different flight",
     "Can I change my booking?",
     "Yes: you can move a booking to another date on the same route, change the number of passengers or the seat. "
     "Date changes cost $75 per passenger plus any fare difference, and need seats on the new flight."),
    ("checkin", "check-in checkin check in online boarding pass when",
     "When can I check in?",
     "Online check-in opens 24 hours before departure and closes 1 hour before. "
     "I can set a check-in reminder for any of your bookings."),
    ("seats", "seat seats aisle window middle seating legroom sit sitting together next",
     "Can I choose my seat?",
     "Yes, seat selection (window, aisle or middle) is free, and passengers on one booking are seated together "
     "where the plane allows (a child under 12 always sits next to an adult on the same booking). Save a seat "
     "preference and I'll use it for your next bookings."),
    ("meals", "meal meals food vegetarian vegan kosher halal gluten dietary",
     "Do you offer special meals?",
     "Standard, vegetarian, vegan, kosher, halal and gluten-free meals are available on flights over 3 hours. "
     "Save a meal preference and it is added to every booking."),
    ("pets", "pet pets dog cat animal animals",
     "Can I travel with my pet?",
     "Small cats and dogs (up to 8 kg with their carrier) can travel in the cabin for $95 each way. "
     "Service animals travel free."),
    ("payment", "pay payment card credit debit currency currencies paypal",
     "How can I pay?",
     "We accept major credit and debit cards. Fares are shown in US dollars; "
     "I can compare them against a budget given in EUR, GBP, CAD, JPY, AUD or CHF."),
    ("documents", "passport visa id identification documents entry requirements",
     "What documents do I need?",
     "Domestic flights need a government-issued photo ID; international flights need a valid passport and any visa "
     "the destination requires. Ask me for the travel advisory of a destination to see its entry rules."),
    ("children", "child children kid kids infant baby minor unaccompanied",
     "Can children fly alone?",
     "Children under 2 fly on an adult's lap for 10% of the fare. Children aged 5 to 14 can fly alone "
     "with our unaccompanied-minor service ($150 each way)."),
)
