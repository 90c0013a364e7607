"use client";

import { useState } from "react";
import { Icon } from "./icon";

/** Copies a value to the clipboard and says so. */
export function CopyButton({ value, label = "Copy", className = "btn-secondary btn-sm", iconOnly = false }: { value: string; label?: string; className?: string; iconOnly?: boolean }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      const ta = document.createElement("textarea");
      ta.value = value;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand("copy");
      ta.remove();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  }
  return (
    <button type="button" onClick={copy} className={className} aria-label={iconOnly ? `${label}${copied ? " (copied)" : ""}` : undefined} title={label}>
      <Icon name={copied ? "check" : "copy"} className="size-3.5" />
      {iconOnly ? null : <span>{copied ? "Copied" : label}</span>}
      <span className="sr-only" role="status">{copied ? "Copied to clipboard" : ""}</span>
    </button>
  );
}
