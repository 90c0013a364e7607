"use client";

import { useMemo } from "react";
import { tokenizeRuleLine, type TokenKind } from "@/lib/dashboard/rules/rules-syntax";
import { parseRules } from "@/lib/engine/classify/parse-rules";
import { CodeEditor } from "@/components/ui/code-editor";

const tokenClass: Record<TokenKind, string> = {
  class: "text-sky-700 font-semibold dark:text-sky-300",
  logic: "text-fuchsia-700 font-semibold dark:text-fuchsia-300",
  keyword: "text-zinc-800 dark:text-zinc-200",
  regex: "text-amber-700 dark:text-amber-300",
  comma: "text-zinc-500",
  comment: "text-zinc-500 italic",
  space: "",
};

/**
 * The rules editor: highlighting of class / logic / keywords / regex, and each problem from the
 * engine's parser (parseRules) on its line, so what the editor accepts is what POST
 * /v1/pdf/classifier accepts; a logic word the format does not have (XOR) is listed as a warning.
 */
export function RulesEditor({ id, value, onChange, describedBy, minRows = 10, label = "Rules" }: { id: string; value: string; onChange: (v: string) => void; describedBy?: string; minRows?: number; label?: string }) {
  const parsed = useMemo(() => parseRules(value), [value]);
  return (
    <CodeEditor
      id={id}
      value={value}
      onChange={onChange}
      problems={parsed.errors}
      warnings={parsed.warnings}
      describedBy={describedBy}
      minRows={minRows}
      label={label}
      testId="rules"
      highlight={(line) =>
        tokenizeRuleLine(line).map((t, j) => (
          <span key={j} className={tokenClass[t.kind]} data-token={t.kind}>{t.text}</span>
        ))
      }
    />
  );
}
