// `rig doctor`: prints the engine's findings (core/doctor.ts); exits 1 when something needs fixing.
import { diagnose, type DoctorInput as CoreDoctorInput } from '../../core/doctor.js';

export interface DoctorInput extends Partial<Omit<CoreDoctorInput, 'env' | 'cwd'>> {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  stdout?: (text: string) => void;
}

export async function runDoctor(input: DoctorInput = {}): Promise<number> {
  const { stdout, env, cwd, ...rest } = input;
  const report = await diagnose({ env: env ?? process.env, cwd: cwd ?? process.cwd(), ...rest });
  (stdout ?? ((text: string) => void process.stdout.write(text)))(`${report.lines.join('\n')}\n`);
  return report.problems > 0 ? 1 : 0;
}
