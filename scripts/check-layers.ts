/**
 * The layering check of `npm run check`: reads every import of app/, components/, lib/, scripts/
 * and bench/ and fails (exit 1) on
 *   - an import that points up the layer order below (lib/engine into lib/api, lib/core into
 *     anything, lib/dashboard into components...), type-only imports included: they couple the
 *     layers just the same;
 *   - an import between two different layers of the same rank (lib/server ↔ components);
 *   - a private import (a module's export that only one file may use);
 *   - a cycle of static runtime imports between files. Type-only imports are left out (the
 *     compiler erases them, so they cannot make an initialisation-order bug) and so are lazy
 *     `import()` expressions (they run after every module has loaded: the route table and the
 *     runner registry load their handlers and runners that way on purpose).
 * Each violation is printed as file:line with the rule it breaks. Usage: scripts/check-layers.ts [root]
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The layers, lowest first: a file may import its own layer and any layer of a lower rank. */
export const layers: { name: string; rank: number; paths: string[] }[] = [
  { name: "core", rank: 0, paths: ["lib/core"] },
  { name: "egress", rank: 1, paths: ["lib/egress"] },
  { name: "engine", rank: 2, paths: ["lib/engine"] },
  { name: "db", rank: 3, paths: ["lib/db"] },
  { name: "services", rank: 4, paths: ["lib/auth", "lib/credits", "lib/storage", "lib/webhooks", "lib/templates", "lib/datastore"] },
  { name: "operations", rank: 5, paths: ["lib/operations"] },
  { name: "jobs", rank: 6, paths: ["lib/jobs"] },
  { name: "api", rank: 7, paths: ["lib/api"] },
  { name: "dashboard", rank: 8, paths: ["lib/dashboard"] },
  { name: "server", rank: 9, paths: ["lib/server"] },
  { name: "components", rank: 9, paths: ["components"] },
  { name: "app", rank: 10, paths: ["app"] },
  { name: "entry points", rank: 11, paths: ["scripts", "bench"] },
];

/** Exports only the named files may import: the account's upstream key is read in one place. */
export const privateImports: { module: string; names: string[]; allowed: string[]; why: string }[] = [
  {
    module: "lib/auth/upstream.ts",
    names: ["getProxyTarget"],
    allowed: ["lib/dashboard/server/upstream.ts"],
    why: "calls to an upstream with the account's key go through lib/dashboard/server/upstream.ts (egress check and pinning)",
  },
];

const SOURCE_DIRS = ["app", "components", "lib", "scripts", "bench"];
const EXTENSIONS = [".ts", ".tsx", ".mts", ".mjs", ".js"];

export interface ImportEdge {
  from: string;
  to: string;
  line: number;
  typeOnly: boolean;
  lazy: boolean;
  names: string[];
}

export interface Violation {
  file: string;
  line: number;
  message: string;
}

export function layerOf(file: string) {
  return layers.find((l) => l.paths.some((p) => file === p || file.startsWith(p + "/")));
}

function listFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    const abs = path.join(root, dir);
    if (!fs.existsSync(abs)) return;
    for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
      const rel = path.posix.join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && !e.name.startsWith(".")) walk(rel);
      } else if (EXTENSIONS.some((x) => e.name.endsWith(x)) && !e.name.endsWith(".d.ts")) out.push(rel);
    }
  };
  SOURCE_DIRS.forEach(walk);
  return out.sort();
}

function resolveSpecifier(root: string, from: string, spec: string): string | undefined {
  let base: string;
  if (spec.startsWith("@/")) base = spec.slice(2);
  else if (spec.startsWith("./") || spec.startsWith("../")) base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return undefined; // a package or a node: builtin
  const candidates = [base, ...EXTENSIONS.map((x) => base + x), ...EXTENSIONS.map((x) => `${base}/index${x}`)];
  if (/\.(m?js)$/.test(base)) candidates.push(base.replace(/\.m?js$/, ".ts"));
  return candidates.find((c) => fs.existsSync(path.join(root, c)) && fs.statSync(path.join(root, c)).isFile());
}

/** Every import of a file that names a project file: static, type-only, re-exports and lazy import(). */
export function readImports(root: string, file: string): ImportEdge[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : file.endsWith(".ts") || file.endsWith(".mts") ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const edges: ImportEdge[] = [];
  const add = (spec: string, node: ts.Node, typeOnly: boolean, lazy: boolean, names: string[]) => {
    const to = resolveSpecifier(root, file, spec);
    if (!to) return;
    edges.push({ from: file, to, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, typeOnly, lazy, names });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const specifiers = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly = Boolean(
        clause && (clause.isTypeOnly || (!clause.name && specifiers && specifiers.length > 0 && specifiers.every((s) => s.isTypeOnly))),
      );
      const names = specifiers ? specifiers.map((s) => (s.propertyName ?? s.name).text) : [];
      add(node.moduleSpecifier.text, node, typeOnly, false, names);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const names = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements.map((e) => (e.propertyName ?? e.name).text) : [];
      add(node.moduleSpecifier.text, node, node.isTypeOnly, false, names);
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteralLike(node.arguments[0])) {
      const spec = node.arguments[0].text;
      if (node.expression.kind === ts.SyntaxKind.ImportKeyword) add(spec, node, false, true, []);
      else if (ts.isIdentifier(node.expression) && node.expression.text === "require") add(spec, node, false, false, []);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, node, true, false, []);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edges;
}

/** The layering and cycle violations of the project at `root`. */
export function checkLayers(root: string): { violations: Violation[]; files: number; edges: number } {
  const files = listFiles(root);
  const edges = files.flatMap((f) => readImports(root, f));
  const violations: Violation[] = [];
  for (const e of edges) {
    const from = layerOf(e.from);
    const to = layerOf(e.to);
    if (!from || !to || from.name === to.name) continue;
    if (to.rank > from.rank) {
      violations.push({
        file: e.from,
        line: e.line,
        message: `imports ${e.to}${e.typeOnly ? " (type only)" : ""}: ${from.name} (${from.paths.join(", ")}) may not import ${to.name}, a higher layer`,
      });
    } else if (to.rank === from.rank) {
      violations.push({
        file: e.from,
        line: e.line,
        message: `imports ${e.to}: ${from.name} and ${to.name} are separate layers of the same rank and may not import each other`,
      });
    }
  }
  for (const rule of privateImports) {
    for (const e of edges) {
      if (e.to !== rule.module || rule.allowed.includes(e.from)) continue;
      const used = e.names.filter((n) => rule.names.includes(n));
      if (used.length || (e.lazy && !e.names.length)) {
        violations.push({ file: e.from, line: e.line, message: `imports ${used.join(", ") || "the module"} from ${rule.module}: ${rule.why}` });
      }
    }
  }
  for (const cycle of findCycles(files, edges.filter((e) => !e.typeOnly && !e.lazy))) {
    const first = edges.find((e) => e.from === cycle[0] && e.to === cycle[1])!;
    violations.push({ file: first.from, line: first.line, message: `import cycle: ${[...cycle, cycle[0]].join(" → ")}` });
  }
  return { violations, files: files.length, edges: edges.length };
}

/** Strongly connected components of more than one file (or a file importing itself), as one cycle each. */
function findCycles(files: string[], edges: ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const f of files) next.set(f, []);
  for (const e of edges) next.get(e.from)?.push(e.to);
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!idx.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (next.get(v) ?? []).includes(v)) cycles.push(pathThrough(comp, next));
    }
  };
  for (const f of files) if (!idx.has(f)) connect(f);
  return cycles;
}

/** One concrete cycle inside a strongly connected component, for the message. */
function pathThrough(comp: string[], next: Map<string, string[]>): string[] {
  const inComp = new Set(comp);
  const start = comp.sort()[0];
  const seen = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of next.get(v) ?? []) {
      if (!inComp.has(w)) continue;
      if (w === start) {
        const cycle = [v];
        for (let x = v; x !== start; x = seen.get(x)!) cycle.unshift(seen.get(x)!);
        return cycle;
      }
      if (!seen.has(w)) {
        seen.set(w, v);
        queue.push(w);
      }
    }
  }
  return comp;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("check-layers.ts")) {
  const root = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, ".."));
  const { violations, files, edges } = checkLayers(root);
  for (const v of violations) console.log(`${v.file}:${v.line}  ${v.message}`);
  console.log(`layers: ${files} files, ${edges} imports, ${violations.length} violation(s)`);
  process.exit(violations.length ? 1 : 0);
}
