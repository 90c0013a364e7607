/**
 * Inputs of the PDF editor (POST /v1/pdf/edit/add) in engine terms. Coordinates are points
 * from the top-left corner of the page as displayed (crop box, after /Rotate). Universal.
 */

export type TextKind = "Text" | "TextField" | "TextFieldMultiline" | "Checkbox" | "CheckboxChecked";

export interface TextAnnotation {
  text: string;
  x: number;
  y: number;
  type: TextKind;
  /** Field name for the form-field kinds. */
  id?: string;
  /** Line height in points (default 1.2 × size). */
  leading?: number;
  width?: number;
  height?: number;
  alignment: "left" | "center" | "right";
  /** 0-based page selection; undefined = every page. */
  pages?: string;
  /** RRGGBB or AARRGGBB (AA = opacity), optional leading #. */
  color: string;
  link?: string;
  size: number;
  /** false draws a white background behind the text. */
  transparent: boolean;
  fontName?: string;
  fontBold: boolean;
  fontItalic: boolean;
  fontUnderline: boolean;
  fontStrikeout: boolean;
}

export interface ImageStamp {
  /** https URL or a base64 data: URI. */
  url: string;
  x: number;
  y: number;
  width?: number;
  height?: number;
  pages?: string;
  link?: string;
}

export interface FieldFill {
  /** Fully qualified field name (parent names joined by "."). */
  fieldName: string;
  text: string;
  pages?: string;
}

export interface EditRequest {
  annotations: TextAnnotation[];
  images: ImageStamp[];
  fields: FieldFill[];
  /** Values for custom `{{name}}` macros (dotted paths reach nested objects). */
  templateData?: Record<string, unknown>;
  password?: string;
}

/** Fetches an image named by URL (the runner passes ctx.fetchUrl, guarded by the egress module). */
/** Fetches an image; `field` is the request path it came from (`images[0].url`), for messages. */
export type ImageLoader = (url: string, field: string) => Promise<{ bytes: Uint8Array; contentType: string }>;
