/**
 * How much longer than on the host the HIL tests wait for something to happen in the guest:
 * CTL_HIL_TIME_SCALE (passed in by scripts/hil/test-hil.sh), else 4 in the x86-64 guest and 16 in
 * the armhf and arm64 ones, which emulate every instruction of a foreign ISA (a cold start of Node
 * there takes 7 s on a busy 2-core host, against under 1 s in the x86-64 guest).
 */
export function hilTimeScale(): number {
  const given = Number(process.env.CTL_HIL_TIME_SCALE);
  if (given > 0) return given;
  return process.arch === 'arm' || process.arch === 'arm64' ? 16 : 4;
}
