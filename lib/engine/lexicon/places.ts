/**
 * Postal codes together with the places they belong to: the larger towns of the countries
 * whose codes are bare numbers (Germany, France, Spain, Italy: five digits; Austria,
 * Switzerland, Belgium: four), each with the leading digits its codes start with, and the
 * US states by name. A five-digit number is a German, French, Spanish, Italian or US code
 * only beside a place (or state) that has such codes; alone it says nothing.
 */

/** Country → postal code length and "place:prefix" entries (place folded, prefix = leading digits). */
const TOWNS: Record<string, { digits: number; towns: string }> = {
  DE: {
    digits: 5,
    towns:
      "berlin:1 hamburg:2 munchen:8 koln:5 frankfurt:6 frankfurt am main:6 stuttgart:7 dusseldorf:4 dortmund:44 essen:45 leipzig:04 bremen:28 dresden:01 hannover:30 nurnberg:90 duisburg:47 bochum:44 wuppertal:42 bielefeld:33 bonn:53 munster:48 karlsruhe:76 mannheim:68 augsburg:86 wiesbaden:65 aachen:52 kiel:24 freiburg:79 mainz:55 erfurt:99 rostock:18 kassel:34 potsdam:14 saarbrucken:66 regensburg:93 heidelberg:69 darmstadt:64 ulm:89 wurzburg:97 osnabruck:49 oldenburg:26 braunschweig:38 magdeburg:39 halle:06 chemnitz:09 lubeck:23 jena:07 gottingen:37 ingolstadt:85 paderborn:33 hamm:59 gelsenkirchen:45 monchengladbach:41 krefeld:47 neuss:41 bamberg:96 passau:94 trier:54 koblenz:56 heilbronn:74 pforzheim:75 reutlingen:72 offenbach:63 furth:90 erlangen:91 hildesheim:31 wolfsburg:38 siegen:57 bayreuth:95 konstanz:78 unterschleissheim:85 eschborn:65 walldorf:69 gutersloh:33 herford:32 lunen:44 hagen:58 bottrop:46 remscheid:42 solingen:42 leverkusen:51 ratingen:40 mulheim:45 oberhausen:46 recklinghausen:45 fulda:36 gera:07 zwickau:08 cottbus:03 schwerin:19 flensburg:24 worms:67 ludwigshafen:67 kaiserslautern:67 landshut:84 rosenheim:83 kempten:87 wetzlar:35 giessen:35 marburg:35 neu ulm:89 sindelfingen:71 boblingen:71 ludwigsburg:71 esslingen:73 tubingen:72 villingen schwenningen:78",
  },
  AT: {
    digits: 4,
    towns:
      "wien:1 graz:8 linz:4 salzburg:5 innsbruck:6 klagenfurt:9 villach:95 wels:46 st polten:31 sankt polten:31 dornbirn:68 bregenz:69 leoben:87 steyr:44 feldkirch:68 krems:35 wiener neustadt:27 baden:25 modling:23 klosterneuburg:34",
  },
  CH: {
    digits: 4,
    towns:
      "zurich:8 geneve:12 genf:12 geneva:12 basel:40 bern:30 berne:30 lausanne:10 winterthur:84 luzern:60 lucerne:60 st gallen:90 lugano:69 biel:25 bienne:25 zug:63 thun:36 fribourg:17 freiburg:17 neuchatel:20 chur:70 schaffhausen:82 aarau:50 baar:63 sion:19 baden:54 uster:86 emmen:60 kloten:83",
  },
  FR: {
    digits: 5,
    towns:
      "paris:75 marseille:13 lyon:69 toulouse:31 nice:06 nantes:44 strasbourg:67 montpellier:34 bordeaux:33 lille:59 rennes:35 reims:51 le havre:76 saint etienne:42 toulon:83 grenoble:38 dijon:21 angers:49 nimes:30 villeurbanne:69 clermont ferrand:63 le mans:72 aix en provence:13 brest:29 tours:37 amiens:80 limoges:87 annecy:74 perpignan:66 metz:57 besancon:25 orleans:45 rouen:76 mulhouse:68 caen:14 nancy:54 avignon:84 poitiers:86 la rochelle:17 quimper:29 versailles:78 boulogne billancourt:92 nanterre:92 courbevoie:92 puteaux:92 neuilly sur seine:92 issy les moulineaux:92 levallois perret:92 montreuil:93 saint denis:93 vincennes:94 creteil:94 argenteuil:95 pau:64 bayonne:64 calais:62 cannes:06 antibes:06 valence:26 chambery:73 troyes:10 lorient:56 vannes:56 saint malo:35 colmar:68 ajaccio:20 bastia:20 massy:91 evry:91 cergy:95 roubaix:59 tourcoing:59 dunkerque:59 saint nazaire:44 la defense:92 rueil malmaison:92 clichy:92 saint ouen:93 ivry sur seine:94 sophia antipolis:06 valbonne:06 blagnac:31 merignac:33 bron:69 venissieux:69 ecully:69",
  },
  ES: {
    digits: 5,
    towns:
      "madrid:28 barcelona:08 valencia:46 sevilla:41 zaragoza:50 malaga:29 murcia:30 palma:07 palma de mallorca:07 las palmas:35 las palmas de gran canaria:35 bilbao:48 alicante:03 cordoba:14 valladolid:47 vigo:36 gijon:33 granada:18 a coruna:15 la coruna:15 vitoria:01 vitoria gasteiz:01 santander:39 pamplona:31 san sebastian:20 donostia:20 salamanca:37 toledo:45 cadiz:11 oviedo:33 girona:17 tarragona:43 lleida:25 burgos:09 leon:24 almeria:04 badajoz:06 castellon:12 logrono:26 huelva:21 jaen:23 caceres:10 albacete:02 santa cruz de tenerife:38 alcobendas:28 getafe:28 mostoles:28 leganes:28 hospitalet de llobregat:08 sabadell:08 terrassa:08 badalona:08 elche:03 marbella:29 jerez de la frontera:11 cartagena:30",
  },
  IT: {
    digits: 5,
    towns:
      "roma:00 rome:00 milano:20 milan:20 napoli:80 torino:10 turin:10 palermo:90 genova:16 bologna:40 firenze:50 florence:50 bari:70 catania:95 venezia:30 verona:37 messina:98 padova:35 trieste:34 brescia:25 parma:43 prato:59 modena:41 reggio calabria:89 reggio emilia:42 perugia:06 livorno:57 cagliari:09 foggia:71 rimini:47 salerno:84 ferrara:44 sassari:07 latina:04 monza:20 bergamo:24 pescara:65 vicenza:36 trento:38 bolzano:39 novara:28 ancona:60 udine:33 como:22 lecce:73 pisa:56 siena:53 treviso:31 varese:21 piacenza:29 lucca:55 arezzo:52 cremona:26 mantova:46 pavia:27 lodi:26 cuneo:12 asti:14 alessandria:15 biella:13 aosta:11 sanremo:18 la spezia:19 savona:17 imola:40 faenza:48 ravenna:48 forli:47 cesena:47 pordenone:33 gorizia:34 belluno:32 rovigo:45 taranto:74 brindisi:72 potenza:85 matera:75 cosenza:87 catanzaro:88 siracusa:96 ragusa:97 trapani:91 agrigento:92",
  },
  BE: {
    digits: 4,
    towns:
      "bruxelles:1 brussel:1 brussels:1 antwerpen:2 anvers:2 antwerp:2 gent:9 gand:9 ghent:9 charleroi:6 liege:4 luik:4 brugge:8 bruges:8 namur:5 namen:5 leuven:3 louvain:3 mons:7 bergen:7 mechelen:28 malines:28 aalst:93 kortrijk:85 courtrai:85 hasselt:35 oostende:84 ostende:84 wemmel:17 zaventem:19 waterloo:14 wavre:13 waver:13 louvain la neuve:13 genk:36 sint niklaas:91 roeselare:88 turnhout:23 diegem:18 machelen:18 vilvoorde:18 ixelles:10 elsene:10 uccle:11 ukkel:11 schaerbeek:10 anderlecht:10 etterbeek:10",
  },
};

/** US states by name (folded) → code. */
export const US_STATE_NAMES: Record<string, string> = Object.fromEntries(
  "alabama:AL,alaska:AK,arizona:AZ,arkansas:AR,california:CA,colorado:CO,connecticut:CT,delaware:DE,florida:FL,georgia:GA,hawaii:HI,idaho:ID,illinois:IL,indiana:IN,iowa:IA,kansas:KS,kentucky:KY,louisiana:LA,maine:ME,maryland:MD,massachusetts:MA,michigan:MI,minnesota:MN,mississippi:MS,missouri:MO,montana:MT,nebraska:NE,nevada:NV,new hampshire:NH,new jersey:NJ,new mexico:NM,new york:NY,north carolina:NC,north dakota:ND,ohio:OH,oklahoma:OK,oregon:OR,pennsylvania:PA,rhode island:RI,south carolina:SC,south dakota:SD,tennessee:TN,texas:TX,utah:UT,vermont:VT,virginia:VA,washington:WA,west virginia:WV,wisconsin:WI,wyoming:WY,district of columbia:DC"
    .split(",")
    .map((e) => e.split(":") as [string, string]),
);

const TOWN_INDEX = new Map<string, { country: string; digits: number; prefix: string }[]>();
for (const [country, { digits, towns }] of Object.entries(TOWNS)) {
  // "frankfurt am main:6" has spaces inside the name: split on the prefix markers instead.
  for (const m of towns.matchAll(/([a-z][a-z ]*?):(\d+)/g)) {
    const name = m[1].trim();
    const list = TOWN_INDEX.get(name) ?? [];
    list.push({ country, digits, prefix: m[2] });
    TOWN_INDEX.set(name, list);
  }
}

/**
 * The countries a postal code fits together with the place printed after it: "80786",
 * "munchen" → ["DE"]; "12345", "papierfeld" → [] (an unknown place proves nothing).
 * `place` is folded text; its first one to four words are tried.
 */
export function placeCountries(code: string, place: string): string[] {
  const words = place.replace(/[^a-z ]+/g, " ").trim().split(/\s+/).slice(0, 4);
  const out = new Set<string>();
  for (let n = words.length; n >= 1; n--) {
    for (const t of TOWN_INDEX.get(words.slice(0, n).join(" ")) ?? [])
      if (code.length === t.digits && code.startsWith(t.prefix)) out.add(t.country);
    if (out.size > 0) break;
  }
  return [...out];
}
