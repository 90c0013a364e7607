import { z } from "zod";
import { common, encryptionProfileKeys, meta, profileKeys, profiles } from "@/lib/operations/fields";

/**
 * The print options web page → PDF and HTML → PDF share (paper, margins, orientation, header and
 * footer…), as Chromium applies them.
 */
export const printParams = {
  margins: meta(z.string().max(100).optional(), {
    label: "Margins",
    help: 'One value for all sides, or "top right bottom left"; units px, mm, cm, in (a bare number is px). Default: none, or 0.5in above a header / below a footer.',
    example: "10mm 10mm 10mm 10mm",
  }),
  paperSize: meta(z.string().max(100).optional(), {
    label: "Paper size",
    help: 'Letter, Legal, Tabloid, Ledger, A0–A6, or "<width> <height>" with units px, mm, cm, in (e.g. "210mm 297mm"). Default A4.',
    example: "A4",
  }),
  orientation: meta(z.enum(["Portrait", "Landscape"]).optional(), {
    label: "Orientation",
    help: "Portrait (default) or Landscape (swaps the paper's width and height).",
  }),
  printBackground: meta(z.boolean().optional(), {
    label: "Print backgrounds",
    help: "Print background colours and images (default true).",
    default: true,
  }),
  mediaType: meta(z.enum(["print", "screen", "none"]).optional(), {
    label: "CSS media type",
    help: "print (default): the page's print styles; screen: as on screen; none: no emulation.",
    advanced: true,
  }),
  DoNotWaitFullLoad: meta(z.boolean().optional(), {
    label: "Don't wait for full load",
    help: "Print once the HTML is parsed instead of waiting for every image, font and script (default false).",
    advanced: true,
  }),
  header: meta(z.string().max(100_000).optional(), {
    label: "Header HTML",
    help: "HTML on top of every page. Elements with class date, title, url, pageNumber or totalPages get those values; images only as data:image/...;base64.",
    widget: "textarea",
    example: '<div style="text-align:right"><span class="title"></span></div>',
  }),
  footer: meta(z.string().max(100_000).optional(), {
    label: "Footer HTML",
    help: "HTML at the bottom of every page, with the same classes as the header.",
    widget: "textarea",
    example:
      '<div style="text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>',
  }),
};

/** The naming, background-job and profile fields both printers take (profiles.CustomScript too). */
export const printJobParams = {
  name: common.name,
  expiration: common.expiration,
  async: common.async,
  callback: common.callback,
  profiles: profiles({
    outputDataFormat: profileKeys.outputDataFormat,
    CustomScript: meta(z.string().max(100_000).optional(), {
      label: "Custom script",
      help: "JavaScript run in the page after it loads and before it is printed (e.g. to hide a banner).",
      advanced: true,
      widget: "textarea",
    }),
    ...encryptionProfileKeys,
  }),
};
