/**
 * A small, strict-enough XML reader for e-invoices (CII and UBL): elements, attributes, text,
 * CDATA, comments, processing instructions and the predefined and numeric entities. Namespace
 * prefixes are kept in `name` and stripped in `local`. No DTDs (a DOCTYPE is refused, which
 * also rules out entity-expansion attacks).
 */
export interface XmlElement {
  name: string;
  local: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (m, e: string) => {
    if (e[0] === "#") {
      const code = e[1] === "x" ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return ENTITIES[e] ?? m;
  });
}

/** Parses an XML document; throws on malformed input. */
export function parseXml(input: string): XmlElement {
  let src = input.replace(/^\uFEFF/, "");
  if (/<!DOCTYPE/i.test(src)) throw new Error("XML with a DOCTYPE is not accepted");
  const root: XmlElement = { name: "#document", local: "#document", attrs: {}, children: [], text: "" };
  const stack: XmlElement[] = [root];
  let i = 0;
  const n = src.length;
  while (i < n) {
    const lt = src.indexOf("<", i);
    const textEnd = lt < 0 ? n : lt;
    if (textEnd > i) stack[stack.length - 1].text += decode(src.slice(i, textEnd));
    if (lt < 0) break;
    if (src.startsWith("<!--", lt)) {
      const end = src.indexOf("-->", lt + 4);
      if (end < 0) throw new Error("unterminated comment");
      i = end + 3;
    } else if (src.startsWith("<![CDATA[", lt)) {
      const end = src.indexOf("]]>", lt + 9);
      if (end < 0) throw new Error("unterminated CDATA");
      stack[stack.length - 1].text += src.slice(lt + 9, end);
      i = end + 3;
    } else if (src.startsWith("<?", lt)) {
      const end = src.indexOf("?>", lt + 2);
      if (end < 0) throw new Error("unterminated processing instruction");
      i = end + 2;
    } else if (src.startsWith("</", lt)) {
      const end = src.indexOf(">", lt);
      if (end < 0) throw new Error("unterminated end tag");
      const name = src.slice(lt + 2, end).trim();
      const top = stack.pop();
      if (!top || top.name !== name) throw new Error(`mismatched end tag </${name}>`);
      i = end + 1;
    } else {
      const m = /^<([A-Za-z_][\w.:-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(
        src.slice(lt, lt + 4096),
      );
      if (!m) throw new Error(`malformed tag at offset ${lt}`);
      const [whole, name, attrText, selfClose] = m;
      const attrs: Record<string, string> = {};
      for (const a of attrText.matchAll(/([A-Za-z_][\w.:-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
        attrs[a[1]] = decode(a[2] ?? a[3] ?? "");
      const el: XmlElement = {
        name,
        local: name.includes(":") ? name.slice(name.indexOf(":") + 1) : name,
        attrs,
        children: [],
        text: "",
      };
      stack[stack.length - 1].children.push(el);
      if (!selfClose) stack.push(el);
      i = lt + whole.length;
    }
  }
  if (stack.length !== 1) throw new Error(`unclosed element <${stack[stack.length - 1].name}>`);
  src = "";
  const top = root.children[0];
  if (!top) throw new Error("empty XML document");
  return top;
}

/** The first descendant reached by a path of local names ("SellerTradeParty/Name"). */
export function find(el: XmlElement | undefined, path: string): XmlElement | undefined {
  if (!el) return undefined;
  let cur: XmlElement | undefined = el;
  for (const part of path.split("/")) {
    if (!cur) return undefined;
    cur = cur.children.find((c) => c.local === part);
  }
  return cur;
}

/** All children (or descendants along a path) with the given local names. */
export function findAll(el: XmlElement | undefined, path: string): XmlElement[] {
  if (!el) return [];
  const parts = path.split("/");
  let level: XmlElement[] = [el];
  for (const part of parts) level = level.flatMap((e) => e.children.filter((c) => c.local === part));
  return level;
}

/** Trimmed text at a path, or undefined when absent or empty. */
export function textAt(el: XmlElement | undefined, path: string): string | undefined {
  const t = find(el, path)?.text.trim();
  return t ? t : undefined;
}
