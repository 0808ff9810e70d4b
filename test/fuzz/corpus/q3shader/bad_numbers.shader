textures/a/b
{
	{
		tcMod scale nan 1e40
	}
}
textures/a/c { { map "unterminated
} }
