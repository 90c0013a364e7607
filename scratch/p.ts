import { notAPartyName, isHeadingOnly } from "@/lib/engine/lexicon/invoice-fields";
for (const s of ["[Seller name]", "[Buyer name]", "Contribuinte A"]) console.log(s, notAPartyName(s), isHeadingOnly(s));
