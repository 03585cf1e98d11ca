// Every threshold of the face pipeline in one place. Model constants come from /work/shared/MODELS.md
// (measured); quality-gate constants are ours, calibrated on the fixture faces and webcam frames.
// The two a flow falls back to (MATCH_THRESHOLD, FACE_SCAN_DEFAULTS) are in domain/face/thresholds.ts,
// because the domain applies them and must not import the pipeline.

/** fr_detect input size (width × height) and decoding. */
export const DETECT_WIDTH = 320;
export const DETECT_HEIGHT = 240;
/** Minimum class-1 (face) score of an fr_detect prior. */
export const DETECT_SCORE_THRESHOLD = 0.65;
/**
 * Score the detector's closer look (FacePipeline.closerLook) must give for a detection to count as a
 * face. Measured: fixture portraits, a group photo's 18-px faces and synthetic head turns to ±45°
 * 1.00; real portraits darkened to a fifth or blurred over 17 px 0.94–1.00; a coffee cup drifting in
 * a hand-held frame (found on the first look at 0.65–0.97 in about half the frames) 0–0.87.
 */
export const CLOSER_LOOK_SCORE = 0.9;
/**
 * A detection this sure needs no closer look: real faces at verification distance score 0.997–1.000
 * (the closer look cost 8–10 ms a frame, 12 % of the evidence analysis); the cup reached 0.97.
 */
export const SURE_DETECTION_SCORE = 0.99;
/** IoU above which two detections are the same face. */
export const DETECT_NMS_IOU = 0.4;

export const LANDMARK_SIZE = 64;
export const FEATURE_SIZE = 112;
export const EMBEDDING_LENGTH = 512;
export const LIVENESS_SIZE = 128;
/** The liveness crop is the square face box scaled by this factor (less when the image is too small). */
export const LIVENESS_CROP_SCALE = 2.7;
/**
 * Passive liveness (fr_liveness's live probability, softmax index 0) below which a try fails as a
 * picture re-captured by a camera (`notLive`). It was 0.6 until 2026-11-29. What the model scores
 * (scripts/eval/passive-liveness.ts --shared; the attack suite): prints and photos on tablet or phone
 * screens photographed by a camera 0.00, 0.00, 0.01, 0.05; labelled live webcam captures 0.15, 0.72,
 * 0.98 (at 0.6, one of three refused: it scores 0.15–0.18 however it is cropped);
 * issue #12's 280 real faces from public sources, 59 under 0.6 and still 40 under 0.3, and its 23
 * attacks either near 0 or near 1 (0.3 and 0.6 accepted the same 7). So 0.1, between the highest
 * re-capture and the lowest live capture seen. The price: a portrait with its edges in view (the
 * attack suite's subject letterboxed, as a print held up shows) scored 0.04–0.49 a try, 8 of 10 at
 * 0.1 or more; the turn and the light challenge refuse prints without it (every print in every run),
 * and injected or replayed pixels score high at any threshold, so those checks carry liveness anyway.
 */
export const LIVENESS_THRESHOLD = 0.1;

/** Side of the grey face crop on which sharpness and exposure are measured (fixed, so values compare across face sizes). */
export const QUALITY_CROP_SIZE = 128;
/**
 * Face sizes in the face_scan settings (minFaceSize, maxFaceSize) are face-box widths in pixels of a
 * frame this wide: a 1280-px camera frame counts half, so the setting means the same on every camera.
 */
export const FACE_SIZE_REFERENCE_WIDTH = 640;
/** Largest distance of the face centre from the frame centre, as a fraction of the frame's width / height. */
export const MAX_CENTRE_OFFSET = 0.2;
/** Largest head angles, in degrees (approximations from 2D landmarks: see quality.ts). */
export const MAX_YAW = 20;
export const MAX_PITCH = 20;
export const MAX_ROLL = 15;
/**
 * Narrowest reference face (fr_detect box, pixels of the decoded photo) that is compared. The detector
 * still finds faces 16 px wide, but the embedding of a face under ~28 px is no longer the person's: the
 * 11 fixture photos shrunk until their face was 16 / 20 / 24 / 28 / 32 px wide matched their other
 * photos in 2 / 7 / 9 / 10 / 10 of 10 pairs (genuine cosine median 0.35 / 0.57 / 0.63 / 0.68 / 0.73;
 * no impostor above 0.34 at any size). A smaller face is refused as unusable rather than judged a
 * non-match.
 */
export const MIN_REFERENCE_FACE_WIDTH = 32;
/** Mean luminance (0–255) of the face crop outside which the face is too dark / too bright. */
export const MIN_LUMINANCE = 60;
export const MAX_LUMINANCE = 200;
/**
 * Sharpness (quality.ts: Laplacian variance of the face resampled to 128×128 grey) under which a
 * reference face is too blurred for a non-match to say anything about the person. On 61 photos never
 * seen here (deepface's test set, 2026-11-30) sharp faces measured 301 or more, on the 11 fixture
 * faces 56 or more; blurred (σ 3, σ 6) 3–91, and every blurred reference that missed its owner
 * (3 photos at σ 3, 11 at σ 6: genuine cosine 0.28–0.45) measured 3–14. JPEG at quality 10 keeps its
 * sharpness (blocks are edges: 237 or more) and is not doubted by this.
 */
export const MIN_REFERENCE_SHARPNESS = 20;
/**
 * `sharpnessBalance` (quality.ts) under which a reference face is blurred along one direction (a
 * moving camera): its non-match is no verdict, as a blurred one's. Sharp faces measured 0.20–0.54
 * (61 photos never seen here, 0.24–0.44 on the 11 fixture faces); under a 15-px horizontal motion
 * blur, the 5 of 61 references that missed their owner (genuine cosine 0.18–0.42) measured 0.04–0.10
 * while their Laplacian sharpness stayed at 36–110, over MIN_REFERENCE_SHARPNESS.
 */
export const MIN_SHARPNESS_BALANCE = 0.12;

/**
 * Active liveness challenges (challenge.ts). Yaw is measured from 68 landmarks (quality.ts headPose);
 * on the fixture portraits a "frontal" face reads −16…+19°, so a turn counts by how far yaw moves from
 * the user's own frontal baseline, not by its absolute value.
 */
export const CHALLENGE_TURN_DELTA = 18;
/**
 * Share of the asked turn at which the movement counts as under way (challenge.ts onsetIndex): the
 * light challenge needs the movement under way while its colours show, not finished (a user slow to
 * turn after a 1.4–1.9 s sequence peaks after it, and failed as `turnOutside`).
 */
export const CHALLENGE_ONSET_SHARE = 0.5;
/** Largest |yaw| of a frame that may serve as the frontal baseline of a turn. */
export const CHALLENGE_FRONTAL_YAW = 20;
/** Open eyes read 0.17–0.40 (eye aspect ratio) on the fixtures; a blink is a dip below this share of the open value… */
export const BLINK_CLOSED_RATIO = 0.6;
/** …followed by eyes open again (at least this share of the open value). */
export const BLINK_REOPEN_RATIO = 0.85;
/** Fewest frames with a face that a challenge is judged on. */
export const CHALLENGE_MIN_SAMPLES = 3;
/** Grey-thumbnail mean absolute difference (0–255) under which two frames count as the same picture. */
export const FROZEN_FRAME_DIFF = 0.6;

/**
 * MediaPipe's BlazeFace box → the box fr_detect would give (fr_landmark and the quality crop expect
 * the latter): measured on the fixture portraits in Chromium, fr_detect's box is 1.26× as tall as
 * BlazeFace's square and centred 0.14 of its side higher (it includes the forehead).
 */
export const BLAZE_TO_FR_SIDE = 1.26;
export const BLAZE_TO_FR_CENTRE_Y = -0.14;
/**
 * 68 landmarks → fr_detect's box (47 fixture faces, server models): height 1.40× the landmarks'
 * height (sd 0.13), top 0.387 of it above the highest landmark (sd 0.11), same centre x (sd 0.04).
 */
export const LANDMARKS_TO_FR_HEIGHT = 1.4;
export const LANDMARKS_TO_FR_TOP = -0.387;
/**
 * BlazeFace keypoints → yaw: the nose between the ear tragions, asin-scaled like headPose, then this
 * gain. Against headPose on 68 landmarks (fixture portraits, full size and letterboxed to 640×480) the
 * ratio runs 0.42–0.70; 0.55 is the middle. Only the live guidance uses it; the server's gate and the
 * challenge use the landmarks.
 */
export const KEYPOINT_YAW_GAIN = 0.55;
/** Nose tip height between eye line (0) and mouth centre (1) of a frontal face, BlazeFace keypoints. */
export const KEYPOINT_PITCH_NEUTRAL = 0.53;
/** fr_detect's box is 0.89× as wide as BlazeFace's (same fixtures): minFaceSize/maxFaceSize mean fr_detect widths. */
export const BLAZE_TO_FR_WIDTH = 0.89;
