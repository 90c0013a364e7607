import * as mupdf from "mupdf";
import { makeTablesPdf, gridRows } from "@/tests/helpers/extract-fixtures";
import { extractPageTexts } from "@/lib/engine/text/words";
const pdf = makeTablesPdf([{ tables: [{ x: 72, y: 100, cols: [100, 80, 120], rows: gridRows(3, 3), boldHeader: true }], texts: [{x:72,y:50,text:"Hello World", size: 14, color:[1,0,0], italic: true}] }]);
const doc = new mupdf.PDFDocument(pdf);
const [p] = extractPageTexts(doc, [0], { withRules: true });
console.log(p.width, p.height, p.rotation, p.words.slice(0, 5), p.words.length, p.rules);
