import sharp from "sharp";
import { ssim } from "@/lib/engine/optimize/ssim";
const [a, b] = process.argv.slice(2);
const ga = await sharp(a).grayscale().raw().toBuffer({ resolveWithObject: true });
const gb = await sharp(b).grayscale().resize(ga.info.width, ga.info.height, { fit: "fill" }).raw().toBuffer();
const W = ga.info.width, H = ga.info.height;
for (const dy of [-2, -1, 0, 1, 2]) for (const dx of [-1, 0, 1]) {
  const sh = new Uint8Array(W * H).fill(255);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) { const yy = y + dy, xx = x + dx; if (yy >= 0 && yy < H && xx >= 0 && xx < W) sh[y * W + x] = gb[yy * W + xx]; }
  console.log(dx, dy, ssim({ data: new Uint8Array(ga.data), width: W, height: H }, { data: sh, width: W, height: H }).toFixed(4));
}
