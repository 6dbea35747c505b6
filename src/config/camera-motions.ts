/** A camera motion preset: its prompt is appended to the generation prompt (SPEC §3, §9). */
export interface CameraMotion {
  label: string;
  value: string;
  prompt: string;
}

export const CAMERA_MOTIONS: readonly CameraMotion[] = [
  // Auto leaves the camera to the model, so it adds nothing to the prompt.
  { label: 'Auto', value: 'Auto', prompt: '' },
  { label: 'Static', value: 'Static', prompt: 'Static camera' },
  { label: 'Crane up', value: 'CraneUp', prompt: 'Camera crane up' },
  { label: 'Crane down', value: 'CraneDown', prompt: 'Camera crane down' },
  { label: 'Tilt up', value: 'TiltUp', prompt: 'Camera tilt up' },
  { label: 'Tilt down', value: 'TiltDown', prompt: 'Camera tilt down' },
  { label: 'Pan right', value: 'PanRight', prompt: 'Camera pan right' },
  { label: 'Pan left', value: 'PanLeft', prompt: 'Camera pan left' },
  { label: 'Roll right', value: 'RollRight', prompt: 'Camera roll right' },
  { label: 'Roll left', value: 'RollLeft', prompt: 'Camera roll left' },
  { label: 'Orbit right', value: 'OrbitRight', prompt: 'Camera orbit right' },
  { label: 'Orbit left', value: 'OrbitLeft', prompt: 'Camera orbit left' },
  { label: 'Rotate 360', value: 'Rotate360', prompt: 'Camera rotate 360 degrees' },
  { label: 'Dolly zoom', value: 'DollyZoom', prompt: 'Camera dolly zoom' },
  { label: 'Zoom in', value: 'ZoomIn', prompt: 'Camera zoom in' },
  { label: 'Zoom out', value: 'ZoomOut', prompt: 'Camera zoom out' },
  { label: 'Aerial', value: 'Aerial', prompt: 'Aerial camera shot' },
];
