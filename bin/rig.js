#!/usr/bin/env node
import '../dist/rig.js';
