import { z } from "zod";
import { common, encryptionProfileKeys, labelFields, meta, profileKeys, profiles } from "@/lib/operations/fields";
import { defineOperation } from "@/lib/operations/types";

const coord = (what: string) =>
  z.number().min(0).describe(`${what} in points from the page's top-left corner.`);
const pagesItem = z.string().optional().describe("Pages, counted from 0 (the first page is 0): 0, 1-3, 5-, !0. Empty = every page.");

export const annotationSchema = z.object(labelFields({
  text: z
    .string()
    .default("")
    .describe(
      "Text to draw (or the initial value of a field). Line breaks: \\n or {{$$newLine}}. Macros: {{$$PageNumber}}, {{$$PageCount}}, {{name}} from templateData.",
    ),
  x: coord("Left edge"),
  y: coord("Top edge"),
  type: z
    .enum(["Text", "TextField", "TextFieldMultiline", "Checkbox", "CheckboxChecked"])
    .default("Text")
    .describe("Text draws on the page; the others add a form field named by `id`."),
  id: z.string().optional().describe("Name of the new form field (types other than Text)."),
  leading: z.number().positive().max(2000).optional().describe("Line height in points (default 1.2 × size)."),
  width: z.number().positive().optional().describe("Box width: text wraps to it and aligns inside it."),
  height: z.number().positive().optional().describe("Box height: text below it is cut off."),
  alignment: z.enum(["left", "center", "right"]).default("left"),
  pages: pagesItem,
  color: z
    .string()
    .default("#000000")
    .describe("RRGGBB or AARRGGBB (AA = opacity, FF opaque), optional leading #."),
  link: z.string().optional().describe("URL opened when the text is clicked."),
  size: z.number().positive().max(1000).default(12).describe("Font size in points."),
  transparent: z.boolean().default(true).describe("false draws a white background behind the text."),
  fontName: z
    .string()
    .optional()
    .describe(
      "Helvetica (default), Times, Courier, or common names such as Arial, Times New Roman, Courier New.",
    ),
  fontBold: z.boolean().default(false),
  fontItalic: z.boolean().default(false),
  fontUnderline: z.boolean().default(false),
  fontStrikeout: z.boolean().default(false),
}, {
  text: "Text",
  x: "X (points from the left)",
  y: "Y (points from the top)",
  type: "Kind",
  id: "Field name",
  leading: "Line height",
  width: "Box width",
  height: "Box height",
  alignment: ["Alignment", "Left, center or right inside the box width."],
  pages: "Pages",
  color: "Colour",
  link: "Link",
  size: "Font size",
  transparent: "Transparent background",
  fontName: "Font",
  fontBold: ["Bold", "Draw the text in bold."],
  fontItalic: ["Italic", "Draw the text in italics."],
  fontUnderline: ["Underline", "Underline the text."],
  fontStrikeout: ["Strike out", "Draw a line through the text."],
}));

export const imageSchema = z.object(labelFields({
  url: z
    .string()
    .min(1, "url: give an https URL or a base64 data: URI")
    .describe("https URL or base64 data: URI of a PNG, JPEG, GIF, WebP, TIFF or SVG."),
  x: coord("Left edge"),
  y: coord("Top edge"),
  width: z
    .number()
    .positive()
    .optional()
    .describe("Width in points; with only one of width/height the other keeps the aspect ratio."),
  height: z.number().positive().optional().describe("Height in points."),
  pages: pagesItem,
  link: z.string().optional().describe("URL opened when the image is clicked."),
}, {
  url: "Image URL",
  x: "X (points from the left)",
  y: "Y (points from the top)",
  width: "Width",
  height: "Height",
  pages: "Pages",
  link: "Link",
}));

export const fieldFillSchema = z.object(labelFields({
  fieldName: z.string().min(1).describe("Full name of an existing form field (parents joined by '.')."),
  text: z
    .string()
    .default("")
    .describe("Value: text; True/False for check boxes; the option for radio, list and combo boxes."),
  pages: pagesItem,
}, { fieldName: "Field name", text: "Value", pages: "Pages" }));

/**
 * POST /v1/pdf/edit/add — draws text and images, adds form fields and links, fills existing
 * fields. Cost: 1 per call + 1 per page.
 */
export const operation = defineOperation({
  id: "pdf-edit-add",
  path: "/v1/pdf/edit/add",
  title: "Add text, images and fields",
  summary: "Adds text, images, links and form fields to a PDF, and fills its existing form fields.",
  category: "edit",
  params: z.object({
    url: common.url,
    annotations: meta(z.array(annotationSchema).max(2000).optional(), {
      label: "Text and new fields",
      help: "Array of {text, x, y, size, color, fontName, pages, type, id, width, height, alignment, link...}. Coordinates in points from the top-left.",
      widget: "json",
      example: [{ text: "Page {{$$PageNumber}} of {{$$PageCount}}", x: 20, y: 20, size: 10, pages: "0-" }],
    }),
    images: meta(z.array(imageSchema).max(500).optional(), {
      label: "Images",
      help: "Array of {url (https or data: URI), x, y, width, height, pages, link}. A signature is added as an image.",
      widget: "json",
      example: [{ url: "https://example.com/logo.png", x: 400, y: 20, width: 120 }],
    }),
    fields: meta(z.array(fieldFillSchema).max(5000).optional(), {
      label: "Fill form fields",
      help: 'Array of {fieldName, text}: sets existing fields; a check box takes "True".',
      widget: "json",
      example: [{ fieldName: "name", text: "Alice" }],
    }),
    // An object, or the same as JSON text (form posts); the runner reads the text.
    templateData: meta(z.union([z.record(z.string(), z.unknown()), z.string()]).optional(), {
      label: "Macro data",
      help: 'Values for {{name}} macros in annotation text, e.g. {"customer": {"name": "Ada"}} for {{customer.name}}.',
      widget: "json",
      advanced: true,
    }),
    password: common.password,
    name: common.name,
    inline: common.inline,
    async: common.async,
    callback: common.callback,
    httpusername: common.httpusername,
    httppassword: common.httppassword,
    expiration: common.expiration,
    profiles: profiles({ outputDataFormat: profileKeys.outputDataFormat, ...encryptionProfileKeys }),
  }),
  input: "pdf",
  pageBase: 0,
  cost: { perCall: 1, perPage: 1 },
  resultFile: { name: "result.pdf", contentType: "application/pdf" },
  response: z.object({
    url: z.string().describe("URL of the edited PDF."),
  }),
});
