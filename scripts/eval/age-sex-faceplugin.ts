// faceplugin's fr_age / fr_gender (SSR-Net, 64×64, already a dependency) on the same labelled faces as
// age-sex.ts, under every input convention worth trying: RGB or BGR; ImageNet mean/std, raw 0–255 or
// 0–1; the package's own crop (box ×1.4, stretched), square crops ×1.0–1.6 and the raw box. The
// package's JS reads RGBA canvases with ImageNet normalisation; its liveness model only worked with BGR.
// Run: npx tsx scripts/eval/age-sex-faceplugin.ts [-v]   (prints; the README keeps the summary)
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { FaceEngine, faceModelDir } from '../../src/lib/server/biometrics/face-engine.ts';
import { decodeImage } from '../../src/lib/server/biometrics/image-decode.ts';
import { cropResize } from '../../src/lib/face/sample.ts';
import { scaleBox, squareBox, shiftInside, clipBox } from '../../src/lib/face/box.ts';
import type { Box } from '../../src/lib/face/image.ts';
const base = '/work/shared/fixtures/';
const T: Array<[string, Array<[number|null, 'male'|'female']>]> = [
 ['faces/barack_obama_1.jpg',[[51,'male']]],['faces/barack_obama_2.jpg',[[48,'male']]],['faces/barack_obama_3.jpg',[[48,'male']]],
 ['faces/joe_biden_1.jpg',[[67,'male']]],['faces/joe_biden_2.jpg',[[78,'male']]],['faces/paul_rudd_1.jpg',[[40,'male']]],['faces/paul_rudd_2.jpg',[[null,'male']]],
 ['faces/chris_pratt_1.jpg',[[38,'male']]],['faces/eileen_collins_1.jpg',[[42,'female']]],['faces/codait_bryan_1.jpg',[[null,'male']]],['faces/codait_luciano_1.jpg',[[null,'male']]],
 ['faces/group/obama_family_2011.jpg',[[47,'female'],[13,'female'],[50,'male'],[10,'female']]],
];
const opts = { logSeverityLevel: 3 as const };
const age = await ort.InferenceSession.create(join(faceModelDir(),'fr_age.onnx'), opts);
const gen = await ort.InferenceSession.create(join(faceModelDir(),'fr_gender.onnx'), opts);
const engine = await FaceEngine.create();
function merge(x: number[], V: number) { let a=0,b=0,c=0; const s1=3,s2=3,s3=3; for(let i=0;i<s1;i++) a+=(i+x[12+i])*x[i]; a/= s1*(1+x[9]); for(let i=0;i<s2;i++) b+=(i+x[15+i])*x[3+i]; b/= s1*(1+x[9]); b/= s2*(1+x[10]); for(let i=0;i<s3;i++) c+=(i+x[18+i])*x[6+i]; c/=s1*(1+x[9]); c/=s2*(1+x[10]); c/=s3*(1+x[11]); return (a+b+c)*V; }
const names = ['prob_stage_1','prob_stage_2','prob_stage_3','stage1_delta_k','stage2_delta_k','stage3_delta_k','index_offset_stage1','index_offset_stage2','index_offset_stage3'];
async function run(s: ort.InferenceSession, data: Float32Array, V: number) { const o = await s.run({ input: new ort.Tensor('float32', data, [1,3,64,64]) }); const x: number[] = []; for (const n of names) x.push(...(o[n].data as Float32Array)); return merge(x, V); }
const faces: Array<{img: any; box: Box; age: number|null; sex: string; label: string}> = [];
for (const [f, exp] of T) { if (!existsSync(base+f)) continue; const img = await decodeImage(readFileSync(base+f)); const det = (await engine.pipeline.detect(img)).sort((a,b)=>a.box.x-b.box.x); const picked = exp.length>1 ? det : [det.reduce((a,b)=>a.box.width>=b.box.width?a:b)]; exp.forEach((e,i)=>{ if (picked[i]) faces.push({img, box: picked[i].box, age: e[0], sex: e[1], label: f+'#'+i}); }); }
const variants: Record<string, {ch: 'rgb'|'bgr'; norm: 'imagenet'|'raw'|'unit'}> = { rgbImg:{ch:'rgb',norm:'imagenet'}, bgrImg:{ch:'bgr',norm:'imagenet'}, rgbRaw:{ch:'rgb',norm:'raw'}, bgrRaw:{ch:'bgr',norm:'raw'}, bgrUnit:{ch:'bgr',norm:'unit'}, rgbUnit:{ch:'rgb',norm:'unit'} };
const crops: Record<string,(b: Box, w:number,h:number)=>Box> = { js14: (b,w,h)=>shiftInside(scaleBox(b,1.4),w,h), sq14:(b,w,h)=>shiftInside(squareBox(scaleBox(b,1.4)),w,h), raw:(b)=>b, sq10:(b,w,h)=>shiftInside(squareBox(b),w,h), sq12:(b,w,h)=>shiftInside(squareBox(scaleBox(b,1.2)),w,h), sq16:(b,w,h)=>shiftInside(squareBox(scaleBox(b,1.6)),w,h) };
const M=[0.485,0.456,0.406], S=[0.229,0.224,0.225];
const buf = new Float32Array(3*64*64);
for (const [cn, crop] of Object.entries(crops)) for (const [vn, v] of Object.entries(variants)) {
  const rows: string[] = []; let ae=0,n=0,sexOk=0; const errs:number[]=[];
  for (const f of faces) {
    cropResize(f.img, crop(f.box, f.img.width, f.img.height), 64, 64, { channels: v.ch, mean: 0, scale: v.norm==='raw'?1:1/255 }, buf);
    if (v.norm==='imagenet') for (let c=0;c<3;c++){ const cc = v.ch==='rgb'?c:2-c; for(let i=0;i<4096;i++) buf[c*4096+i]=(buf[c*4096+i]-M[cc])/S[cc]; }
    const a = await run(age, buf, 101); const g = await run(gen, buf, 1);
    if (f.age!==null){ ae+=Math.abs(a-f.age); n++; errs.push(a-f.age);} const sx = g>=0.5?'male':'female'; if (sx===f.sex) sexOk++;
    rows.push(`${f.label.replace('faces/','')} ${f.age}/${f.sex} -> ${a.toFixed(1)} g=${g.toFixed(2)}`);
  }
  console.log(`${cn} ${vn}: MAE ${(ae/n).toFixed(1)} (n=${n}) sex ${sexOk}/${faces.length}  errs ${errs.map(e=>e.toFixed(0)).join(',')}`);
  if (process.argv.includes('-v')) console.log(rows.join('\n'));
}
